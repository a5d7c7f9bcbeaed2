// Breaks subject-order as a type-only import: a type from a subject above couples the layers too.
import type { LeadRow } from '../portal/view.ts';

export const queuedEvents = (): LeadRow[] => [];

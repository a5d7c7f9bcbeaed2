// Allowed: a type-only import from the server is erased at build time.
import type { LeadRow } from '../server/db/leads-repo.ts';

export const firstLeadId = (rows: readonly LeadRow[]) => rows[0]?.id;

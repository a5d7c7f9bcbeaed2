// Allowed: leads sit above the outbox.
import { queuedEvents } from '../outbox/queue.ts';

export const recentLeadCount = () => queuedEvents().length;

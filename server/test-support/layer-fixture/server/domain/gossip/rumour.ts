// Breaks subject-placed: gossip/ has no place in the subject order.
import { warmLeads } from '../caches/warm-leads.ts';

export const heard = () => ({ heard: warmLeads() });

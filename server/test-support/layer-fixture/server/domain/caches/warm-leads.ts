// Breaks subject-order: caches sit below leads, so they may not import them.
import { recentLeadCount } from '../leads/recent.ts';

export const warmLeads = () => recentLeadCount();

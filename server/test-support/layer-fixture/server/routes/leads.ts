// Breaks routes-not-to-db: a route reading a repository instead of calling the domain.
import { countLeads } from '../db/leads-repo.ts';

export const leadCount = () => countLeads([]);

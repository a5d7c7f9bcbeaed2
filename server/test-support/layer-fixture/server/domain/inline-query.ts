// Breaks domain-not-to-drizzle: a query written inline in the domain instead of in a repository.
import { sql } from 'drizzle-orm';

export const everything = () => sql`select 1`;

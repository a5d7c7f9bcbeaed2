import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { mcpExports } from '../engine/schema.ts';

export type McpExportRow = typeof mcpExports.$inferSelect;
export type NewMcpExport = typeof mcpExports.$inferInsert;

/** Stores a file an MCP tool made, after removing every expired one (they hold personal data). */
export async function insertMcpExport(db: Db, row: NewMcpExport): Promise<void> {
  await db.delete(mcpExports).where(lte(mcpExports.expiresAt, row.createdAt!));
  await db.insert(mcpExports).values(row);
}

/** The firm's file by id, whoever made it and whether expired (the domain decides what to answer). */
export async function findMcpExport(
  db: Db,
  accountId: string,
  id: string,
): Promise<McpExportRow | undefined> {
  const [row] = await db
    .select()
    .from(mcpExports)
    .where(and(eq(mcpExports.accountId, accountId), eq(mcpExports.id, id)));
  return row;
}

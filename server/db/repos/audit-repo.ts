import { and, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { AuditAction } from '../../../protocol/audit-actions.ts';
import type { Db } from '../engine/database.ts';
import { newId } from '../engine/ids.ts';
import { auditEvents } from '../engine/schema.ts';

export async function recordAudit(
  db: Db,
  event: {
    accountId?: string | null;
    actor: string;
    action: AuditAction;
    subject?: string;
    data?: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await db.insert(auditEvents).values({
    id: newId('evt'),
    accountId: event.accountId ?? null,
    actor: event.actor,
    action: event.action,
    subject: event.subject ?? null,
    data: event.data ?? {},
    createdAt: event.at,
  });
}

export async function hasAudit(db: Db, action: AuditAction, subject: string): Promise<boolean> {
  const rows = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.subject, subject)))
    .limit(1);
  return rows.length === 1;
}

/** Whether anyone ever changed this setting of the firm (an `account.updated` entry naming it). */
export async function hasSettingChange(db: Db, accountId: string, setting: string): Promise<boolean> {
  const rows = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.accountId, accountId),
        eq(auditEvents.action, 'account.updated'),
        sql`${auditEvents.data} -> 'after' -> ${setting}::text is not null`,
      ),
    )
    .limit(1);
  return rows.length === 1;
}

/** A firm's audit trail, newest first, keyset-paginated on (created_at, id). */
export async function listAuditByAccount(
  db: Db,
  accountId: string,
  opts: { limit: number; before?: { createdAt: Date; id: string }; actions?: readonly AuditAction[] },
) {
  const conditions = [eq(auditEvents.accountId, accountId)];
  if (opts.actions) conditions.push(inArray(auditEvents.action, [...opts.actions]));
  if (opts.before)
    conditions.push(
      or(
        lt(auditEvents.createdAt, opts.before.createdAt),
        and(eq(auditEvents.createdAt, opts.before.createdAt), lt(auditEvents.id, opts.before.id)),
      )!,
    );
  return db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(opts.limit);
}

/** Whether `action` was recorded for `subject` since `since` (to write repeated alerts once). */
export async function hasAuditSince(
  db: Db,
  action: AuditAction,
  subject: string,
  since: Date,
): Promise<boolean> {
  const rows = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, action),
        eq(auditEvents.subject, subject),
        gte(auditEvents.createdAt, since),
      ),
    )
    .limit(1);
  return rows.length === 1;
}

import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { findAccountById } from '../../db/accounts-repo.ts';
import { recordAudit } from '../../db/audit-repo.ts';
import { type Db, withTransaction } from '../../db/database.ts';
import { findLead } from '../../db/leads-repo.ts';
import {
  calculationResults,
  deliveryAttempts,
  idempotencyKeys,
  leads,
  mailMessages,
  outboxEvents,
  webhookDeliveries,
} from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { DeliveryDeps } from '../delivery/deps.ts';
import { readMailFile, removeMailFiles } from '../delivery/mail-files.ts';

type Deps = Pick<DeliveryDeps, 'db' | 'clock'>;

/** Outbox events (and, by cascade, deliveries, attempt logs and alert mails) about these records. */
function eventsAbout(leadIds: string[], resultIds: string[]) {
  const conditions = [
    ...(leadIds.length ? [inArray(outboxEvents.leadId, leadIds)] : []),
    ...(resultIds.length ? [inArray(outboxEvents.resultId, resultIds)] : []),
  ];
  return conditions.length ? or(...conditions)! : sql`false`;
}

async function mailFilesAbout(tx: Db, leadIds: string[], eventIds: string[]): Promise<(string | null)[]> {
  const conditions = [
    ...(leadIds.length ? [inArray(mailMessages.leadId, leadIds)] : []),
    ...(eventIds.length ? [inArray(mailMessages.eventId, eventIds)] : []),
  ];
  if (!conditions.length) return [];
  const rows = await tx
    .select({ filePath: mailMessages.filePath })
    .from(mailMessages)
    .where(or(...conditions));
  return rows.map((r) => r.filePath);
}

/**
 * Erases a lead and every copy of it: its linked result (unless another lead shares it), the
 * outbox events about either (with their deliveries, attempt logs and alert mails, and the mail
 * files in DATA_DIR/outbox), and its idempotency record. The audit entry keeps only ids and
 * counts. `accountId` scopes the lookup when a firm (rather than the operator) asks. Copies
 * already delivered to the firm's own systems are theirs to erase.
 */
export async function deleteLead(
  deps: Deps,
  leadId: string,
  opts: { accountId?: string; actor?: string } = {},
) {
  const now = deps.clock.now();
  const { files, summary } = await withTransaction(deps.db, async (tx) => {
    const [lead] = await tx
      .select()
      .from(leads)
      .where(
        opts.accountId
          ? and(eq(leads.id, leadId), eq(leads.accountId, opts.accountId))
          : eq(leads.id, leadId),
      )
      .for('update');
    if (!lead) throw new AppError('NOT_FOUND', `No lead ${leadId}.`);
    const shared = lead.resultId
      ? await tx
          .select({ id: leads.id })
          .from(leads)
          .where(and(eq(leads.resultId, lead.resultId), ne(leads.id, lead.id)))
          .limit(1)
      : [];
    const resultIds = lead.resultId && shared.length === 0 ? [lead.resultId] : [];
    const events = await tx
      .select({ id: outboxEvents.id })
      .from(outboxEvents)
      .where(eventsAbout([lead.id], resultIds));
    const eventIds = events.map((e) => e.id);
    const files = await mailFilesAbout(tx, [lead.id], eventIds);
    const mails = await tx
      .delete(mailMessages)
      .where(eq(mailMessages.leadId, lead.id))
      .returning({ id: mailMessages.id });
    if (eventIds.length) await tx.delete(outboxEvents).where(inArray(outboxEvents.id, eventIds));
    if (lead.idempotencyKey) {
      await tx
        .delete(idempotencyKeys)
        .where(
          and(eq(idempotencyKeys.accountId, lead.accountId), eq(idempotencyKeys.key, lead.idempotencyKey)),
        );
    }
    await tx.delete(leads).where(eq(leads.id, lead.id));
    if (resultIds.length)
      await tx.delete(calculationResults).where(inArray(calculationResults.id, resultIds));
    const summary = {
      leadId: lead.id,
      resultDeleted: resultIds[0] ?? null,
      outboxEventsDeleted: eventIds.length,
      mailsDeleted: Math.max(mails.length, files.filter(Boolean).length),
    };
    await recordAudit(tx, {
      accountId: lead.accountId,
      actor: opts.actor ?? 'admin',
      action: 'lead.deleted',
      subject: lead.id,
      data: {
        resultDeleted: summary.resultDeleted,
        outboxEvents: eventIds.length,
        mails: summary.mailsDeleted,
      },
      at: now,
    });
    return { files, summary };
  });
  removeMailFiles(files);
  return { deleted: true, ...summary };
}

/**
 * A data-subject export: everything this firm's data holds about one e-mail address (matched
 * without regard to case): leads, their results, outbox events, webhook deliveries with their
 * attempt logs, and alert mails with the text of any mail file.
 */
export async function exportSubject(deps: Deps, accountId: string, email: string, actor = 'admin') {
  const db = deps.db;
  if (!(await findAccountById(db, accountId))) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
  const found = await db
    .select()
    .from(leads)
    .where(and(eq(leads.accountId, accountId), sql`lower(${leads.email}) = lower(${email})`));
  const leadIds = found.map((l) => l.id);
  const resultIds = found.map((l) => l.resultId).filter((id): id is string => id !== null);
  const results = resultIds.length
    ? await db
        .select()
        .from(calculationResults)
        .where(and(eq(calculationResults.accountId, accountId), inArray(calculationResults.id, resultIds)))
    : [];
  const events = await db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.accountId, accountId), eventsAbout(leadIds, resultIds)));
  const eventIds = events.map((e) => e.id);
  const deliveries = eventIds.length
    ? await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, eventIds))
    : [];
  const attempts = deliveries.length
    ? await db
        .select()
        .from(deliveryAttempts)
        .where(
          inArray(
            deliveryAttempts.deliveryId,
            deliveries.map((d) => d.id),
          ),
        )
    : [];
  const mailConditions = [
    ...(leadIds.length ? [inArray(mailMessages.leadId, leadIds)] : []),
    ...(eventIds.length ? [inArray(mailMessages.eventId, eventIds)] : []),
  ];
  const mails = mailConditions.length
    ? await db
        .select()
        .from(mailMessages)
        .where(and(eq(mailMessages.accountId, accountId), or(...mailConditions)))
    : [];
  await recordAudit(db, {
    accountId,
    actor,
    action: 'subject.exported',
    data: { leads: found.length },
    at: deps.clock.now(),
  });
  return {
    email,
    accountId,
    generatedAt: deps.clock.now().toISOString(),
    leads: found,
    results,
    outboxEvents: events,
    webhookDeliveries: deliveries.map((d) => ({
      ...d,
      attempts: attempts.filter((a) => a.deliveryId === d.id),
    })),
    mails: mails.map((m) => ({ ...m, fileContent: readMailFile(m.filePath) })),
  };
}

/**
 * The data-subject export for the person behind one of the firm's leads (by that lead's e-mail
 * address): the portal's "Export this person". Another firm's lead id is NOT_FOUND.
 */
export async function exportSubjectOfLead(deps: Deps, accountId: string, leadId: string, actor: string) {
  const lead = await findLead(deps.db, accountId, leadId);
  if (!lead) throw new AppError('NOT_FOUND', 'No such lead.');
  return exportSubject(deps, accountId, lead.email, actor);
}

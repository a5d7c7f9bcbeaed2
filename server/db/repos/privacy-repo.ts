import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import {
  calculationResults,
  deliveryAttempts,
  idempotencyKeys,
  leadNotes,
  leads,
  mailMessages,
  outboxEvents,
  webhookDeliveries,
} from '../engine/schema.ts';
import type { LeadRow } from './leads-repo.ts';

// The queries behind lead deletion and the data-subject export (domain/leads/privacy.ts).

/** Outbox events (and, by cascade, deliveries, attempt logs and alert mails) about these records. */
function eventsAbout(leadIds: string[], resultIds: string[]) {
  const conditions = [
    ...(leadIds.length ? [inArray(outboxEvents.leadId, leadIds)] : []),
    ...(resultIds.length ? [inArray(outboxEvents.resultId, resultIds)] : []),
  ];
  return conditions.length ? or(...conditions)! : sql`false`;
}

/** The lead, locked `FOR UPDATE` for its deletion; with `accountId`, only that firm's. */
export async function lockLead(tx: Db, leadId: string, accountId?: string): Promise<LeadRow | undefined> {
  const [lead] = await tx
    .select()
    .from(leads)
    .where(accountId ? and(eq(leads.id, leadId), eq(leads.accountId, accountId)) : eq(leads.id, leadId))
    .for('update');
  return lead;
}

/** Whether a lead other than `leadId` links to the result. */
export async function isResultShared(tx: Db, resultId: string, leadId: string): Promise<boolean> {
  const shared = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.resultId, resultId), ne(leads.id, leadId)))
    .limit(1);
  return shared.length > 0;
}

export async function eventIdsAbout(tx: Db, leadIds: string[], resultIds: string[]): Promise<string[]> {
  const rows = await tx
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(eventsAbout(leadIds, resultIds));
  return rows.map((e) => e.id);
}

/** The outbox files of mails about these leads or events. */
export async function mailFilesAbout(
  tx: Db,
  leadIds: string[],
  eventIds: string[],
): Promise<(string | null)[]> {
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
 * Deletes the lead with its mails, the given events (their deliveries, attempts and mails by
 * cascade), its idempotency record and the given results. Returns how many mails named the lead.
 */
export async function deleteLeadRows(
  tx: Db,
  lead: LeadRow,
  eventIds: string[],
  resultIds: string[],
): Promise<number> {
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
  if (resultIds.length) await tx.delete(calculationResults).where(inArray(calculationResults.id, resultIds));
  return mails.length;
}

/**
 * Everything the firm holds about one e-mail address (matched without regard to case): its leads,
 * their results, the outbox events about either, those events' deliveries and attempt logs, and
 * the mails about the leads or events.
 */
export async function subjectRecords(db: Db, accountId: string, email: string) {
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
  // Issue 40: the firm's notes on those leads (they may name the person).
  const notes = leadIds.length
    ? await db
        .select()
        .from(leadNotes)
        .where(and(eq(leadNotes.accountId, accountId), inArray(leadNotes.leadId, leadIds)))
    : [];
  return { leads: found, results, events, deliveries, attempts, mails, notes };
}

import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { withTransaction } from '../../db/database.ts';
import { dbNow, dbNowPlus } from '../../db/db-now.ts';
import { findDigest, heldLeadsBetween, leadsOfDigest } from '../../db/lead-digests-repo.ts';
import { accounts, calculationResults, mailMessages, outboxEvents } from '../../db/schema.ts';
import {
  type RenderedMail,
  renderEndpointDisabled,
  renderLeadAlert,
  renderLeadDigest,
  renderQuarantineReport,
} from './alert-mail.ts';
import type { DeliveryDeps } from './deps.ts';
import { nextAttemptAt } from './retry-schedule.ts';

type MailRow = typeof mailMessages.$inferSelect;
const LEASE_MS = 60_000;

/**
 * Claims due mails `FOR UPDATE SKIP LOCKED` with a lease, as the webhook worker does, on the
 * database's clock.
 */
async function claimMails(deps: DeliveryDeps, limit = 10): Promise<MailRow[]> {
  const now = dbNow(deps.clock);
  return withTransaction(deps.db, async (tx) => {
    const ids = await tx
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(
        and(
          eq(mailMessages.status, 'pending'),
          lte(mailMessages.nextAttemptAt, now),
          or(isNull(mailMessages.lockedUntil), lte(mailMessages.lockedUntil, now)),
        ),
      )
      .orderBy(asc(mailMessages.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed: MailRow[] = [];
    for (const { id } of ids) {
      const [row] = await tx
        .update(mailMessages)
        .set({ lockedUntil: dbNowPlus(deps.clock, LEASE_MS), attempts: sql`${mailMessages.attempts} + 1` })
        .where(eq(mailMessages.id, id))
        .returning();
      if (row) claimed.push(row);
    }
    return claimed;
  });
}

async function renderMail(deps: DeliveryDeps, mail: MailRow): Promise<RenderedMail | null> {
  const [account] = await deps.db.select().from(accounts).where(eq(accounts.id, mail.accountId));
  const firmName = account?.name ?? 'Your firm';
  if (mail.kind === 'endpoint_disabled') {
    const body = mail.body ?? {};
    return renderEndpointDisabled({
      firmName,
      url: String(body.url ?? ''),
      endpointId: String(body.endpointId ?? ''),
      failingSince: (body.failingSince as string | null) ?? null,
    });
  }
  if (mail.kind === 'lead_digest' || mail.kind === 'quarantine_report')
    return renderDigestMail(deps, mail, firmName);
  if (!mail.eventId) return null;
  const [event] = await deps.db.select().from(outboxEvents).where(eq(outboxEvents.id, mail.eventId));
  if (!event) return null;
  const lead = (event.payload.data ?? {}) as Record<string, unknown>;
  const resultId = typeof lead.resultId === 'string' ? lead.resultId : null;
  const [result] = resultId
    ? await deps.db
        .select({ outputs: calculationResults.outputs })
        .from(calculationResults)
        .where(and(eq(calculationResults.accountId, mail.accountId), eq(calculationResults.id, resultId)))
    : [];
  return renderLeadAlert({
    firmName,
    lead,
    outputs: result?.outputs,
    link: `${deps.portalUrl}/leads/${encodeURIComponent(String(lead.leadId ?? ''))}`,
  });
}

/** A digest lists its leads as they are when it is sent; null when there is nothing to say. */
async function renderDigestMail(deps: DeliveryDeps, mail: MailRow, firmName: string) {
  const digest = await findDigest(deps.db, mail.accountId, String(mail.body?.digestId ?? ''));
  if (!digest) return null;
  if (mail.kind === 'lead_digest') {
    const rows = await leadsOfDigest(deps.db, mail.accountId, digest.id);
    if (rows.length === 0) return null;
    const link = `${deps.portalUrl}/leads?from=${digest.windowStart.toISOString().slice(0, 10)}`;
    return renderLeadDigest({ firmName, leads: rows.slice(0, 50), total: rows.length, link });
  }
  const held = await heldLeadsBetween(deps.db, mail.accountId, digest.windowStart, digest.sendAt);
  if (held.length === 0) return null;
  const leads = held.map((l) => ({ ...l, reasons: l.quarantineReasons }));
  return renderQuarantineReport({ firmName, leads, link: `${deps.portalUrl}/leads?quarantined=only` });
}

/**
 * Sends one claimed mail and records the outcome. A crash between the send and the update leaves
 * the lease to run out and the mail is sent again with the same Message-ID (and, without SMTP,
 * written over the same file): at least once, never lost.
 */
async function sendMail(deps: DeliveryDeps, mail: MailRow): Promise<void> {
  const now = () => deps.clock.now();
  let rendered: RenderedMail | null;
  let filePath: string | null;
  try {
    rendered = await renderMail(deps, mail);
    if (!rendered) {
      // A digest whose leads were all released (or deleted) has nothing left to report.
      const digest = mail.kind === 'lead_digest' || mail.kind === 'quarantine_report';
      await deps.db
        .update(mailMessages)
        .set({ status: 'failed', lockedUntil: null, lastError: digest ? 'nothing to report' : 'event gone' })
        .where(eq(mailMessages.id, mail.id));
      return;
    }
    ({ filePath } = await deps.mailer.send({
      id: mail.id,
      from: deps.mailFrom,
      to: mail.recipients,
      ...rendered,
    }));
  } catch (error) {
    await scheduleRetry(deps, mail, error);
    return;
  }
  try {
    await deps.db
      .update(mailMessages)
      .set({
        status: 'sent',
        sentAt: now(),
        lockedUntil: null,
        filePath,
        subject: rendered.subject,
        lastError: null,
      })
      .where(eq(mailMessages.id, mail.id));
  } catch (error) {
    // The SMTP server has the mail; only recording that failed. The lease runs out and the mail
    // goes again with the same Message-ID (at least once), so say exactly that.
    deps.logger.warn(
      { mailId: mail.id, err: error },
      'alert mail sent, but recording it failed; it may be sent again',
    );
  }
}

/** The send failed: the next attempt on the retry schedule, or failed for good after the last. */
async function scheduleRetry(deps: DeliveryDeps, mail: MailRow, error: unknown): Promise<void> {
  const at = deps.clock.now();
  const retryAt = nextAttemptAt(mail.attempts, at, deps.random);
  const next = retryAt && dbNowPlus(deps.clock, retryAt.getTime() - at.getTime());
  const message = error instanceof Error ? error.message.slice(0, 300) : 'send failed';
  deps.logger.warn({ mailId: mail.id, reason: message }, 'alert mail not sent');
  await deps.db
    .update(mailMessages)
    .set(
      next
        ? { lockedUntil: null, nextAttemptAt: next, lastError: message }
        : { status: 'failed', lockedUntil: null, lastError: message },
    )
    .where(eq(mailMessages.id, mail.id));
}

export async function deliverMails(deps: DeliveryDeps): Promise<number> {
  const claimed = await claimMails(deps);
  for (const mail of claimed) await sendMail(deps, mail);
  return claimed.length;
}

import { dbNow, dbNowPlus } from '../../db/engine/db-now.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { findDigest, heldLeadsBetween, leadsOfDigest } from '../../db/repos/lead-digests-repo.ts';
import {
  claimDueMails,
  dueMailFirmIds,
  type MailRow,
  renewMailLease,
  updateMail,
} from '../../db/repos/mail-messages-repo.ts';
import { findOutboxEvent } from '../../db/repos/outbox-repo.ts';
import { findResult } from '../../db/repos/results-repo.ts';
import { type LeadResult, leadResult } from '../leads/lead-result.ts';
import {
  type RenderedMail,
  renderDestinationDisabled,
  renderEndpointDisabled,
  renderLeadAlert,
  renderLeadDigest,
  renderQuarantineReport,
} from './alert-mail.ts';
import type { DeliveryDeps } from './deps.ts';
import { nextAttemptAt } from './retry-schedule.ts';

/** A claimed mail's lease when `mailLeaseMs` is not set; renewed every third of it while sending. */
const MAIL_LEASE_MS = 60_000;
const leaseOf = (deps: DeliveryDeps) => deps.mailLeaseMs ?? MAIL_LEASE_MS;

/**
 * Claims due mails `FOR UPDATE SKIP LOCKED` with a lease, as the webhook worker does, on the
 * database's clock. Claim only what is sent at once: a lease covers one message (renewed while it
 * is sent), never a queue behind it that could outlive it.
 */
export async function claimMails(
  deps: DeliveryDeps,
  opts: { accountId?: string; limit?: number } = {},
): Promise<MailRow[]> {
  return claimDueMails(deps.db, {
    now: dbNow(deps.clock),
    lockedUntil: dbNowPlus(deps.clock, leaseOf(deps)),
    accountId: opts.accountId,
    limit: opts.limit ?? 1,
  });
}

/** Firms with due mails, round-robin order (see `dueWebhookFirms`). */
export async function dueMailFirms(
  deps: DeliveryDeps,
  after: string | null,
  exclude: readonly string[],
  limit: number,
): Promise<string[]> {
  return dueMailFirmIds(deps.db, { now: dbNow(deps.clock), after, exclude, limit });
}

/**
 * Keeps a mail's lease ahead while it is being sent (a slow SMTP server can take longer than the
 * lease; without this another instance would claim it and send a second copy). Returns the stop.
 */
function renewWhileSending(deps: DeliveryDeps, mailId: string): () => void {
  const lease = leaseOf(deps);
  const timer = setInterval(() => {
    renewMailLease(deps.db, mailId, dbNowPlus(deps.clock, lease)).catch((error: unknown) =>
      deps.logger.warn({ mailId, err: error }, 'mail lease not renewed'),
    );
  }, lease / 3);
  timer.unref();
  return () => clearInterval(timer);
}

async function renderMail(deps: DeliveryDeps, mail: MailRow): Promise<RenderedMail | null> {
  const account = await findAccountById(deps.db, mail.accountId);
  const firmName = account?.name ?? 'Your firm';
  if (mail.kind === 'endpoint_disabled') {
    const body = mail.body ?? {};
    return renderEndpointDisabled({
      firmName,
      url: String(body.url ?? ''),
      endpointId: String(body.endpointId ?? ''),
      failingSince: (body.failingSince as string | null) ?? null,
      ...(typeof body.reason === 'string' ? { reason: body.reason } : {}),
    });
  }
  if (mail.kind === 'destination_disabled') {
    const body = mail.body ?? {};
    return renderDestinationDisabled({
      firmName,
      vendor: String(body.vendor ?? ''),
      name: typeof body.name === 'string' ? body.name : null,
      reason: String(body.reason ?? ''),
      link: `${deps.portalUrl}/settings/destinations`,
    });
  }
  if (mail.kind === 'lead_digest' || mail.kind === 'quarantine_report')
    return renderDigestMail(deps, mail, firmName);
  if (!mail.eventId) return null;
  const event = await findOutboxEvent(deps.db, mail.eventId);
  if (!event) return null;
  const lead = (event.payload.data ?? {}) as Record<string, unknown>;
  // Events written since issue 20 carry the result; older ones name it, and it is read here.
  const resultId = typeof lead.resultId === 'string' ? lead.resultId : null;
  const result =
    (lead.result as LeadResult | null | undefined) ??
    leadResult(resultId ? await findResult(deps.db, mail.accountId, resultId) : null);
  return renderLeadAlert({
    firmName,
    lead,
    result,
    link: `${deps.portalUrl}/leads/${encodeURIComponent(String(lead.leadId ?? ''))}`,
    timeZone: account?.contact?.timeZone,
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
export async function sendMail(deps: DeliveryDeps, mail: MailRow): Promise<void> {
  const stopRenewing = renewWhileSending(deps, mail.id);
  try {
    await sendClaimedMail(deps, mail);
  } finally {
    stopRenewing();
  }
}

async function sendClaimedMail(deps: DeliveryDeps, mail: MailRow): Promise<void> {
  const now = () => deps.clock.now();
  let rendered: RenderedMail | null;
  let filePath: string | null;
  try {
    rendered = await renderMail(deps, mail);
    if (!rendered) {
      // A digest whose leads were all released (or deleted) has nothing left to report.
      const digest = mail.kind === 'lead_digest' || mail.kind === 'quarantine_report';
      await updateMail(deps.db, mail.id, {
        status: 'failed',
        lockedUntil: null,
        lastError: digest ? 'nothing to report' : 'event gone',
      });
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
    await updateMail(deps.db, mail.id, {
      status: 'sent',
      sentAt: now(),
      lockedUntil: null,
      filePath,
      subject: rendered.subject,
      lastError: null,
    });
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
  await updateMail(
    deps.db,
    mail.id,
    next
      ? { lockedUntil: null, nextAttemptAt: next, lastError: message }
      : { status: 'failed', lockedUntil: null, lastError: message },
  );
}

/**
 * Sends up to `max` due mails one after another, each claimed just before it is sent. For tests
 * and one-off drains: the running worker has its own mail pool (see `worker.ts`).
 */
export async function deliverMails(deps: DeliveryDeps, max = 10): Promise<number> {
  let sent = 0;
  for (; sent < max; sent++) {
    const [mail] = await claimMails(deps);
    if (!mail) break;
    await sendMail(deps, mail);
  }
  return sent;
}

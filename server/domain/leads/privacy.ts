import { withTransaction } from '../../db/engine/database.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { findLead } from '../../db/repos/leads-repo.ts';
import {
  deleteLeadRows,
  eventIdsAbout,
  isResultShared,
  lockLead,
  mailFilesAbout,
  subjectRecords,
} from '../../db/repos/privacy-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { readMailFile, removeMailFiles } from '../../mail/mail-files.ts';
import type { LicensingDeps } from '../deps.ts';

type Deps = Pick<LicensingDeps, 'db' | 'clock'>;

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
  /** `trail: false`: the caller writes one entry for many (the retention window's count). */
  opts: { accountId?: string; actor?: string; trail?: boolean } = {},
) {
  const now = deps.clock.now();
  const { files, summary } = await withTransaction(deps.db, async (tx) => {
    const lead = await lockLead(tx, leadId, opts.accountId);
    if (!lead) throw new AppError('NOT_FOUND', `No lead ${leadId}.`);
    const shared = lead.resultId ? await isResultShared(tx, lead.resultId, lead.id) : false;
    const resultIds = lead.resultId && !shared ? [lead.resultId] : [];
    const eventIds = await eventIdsAbout(tx, [lead.id], resultIds);
    const files = await mailFilesAbout(tx, [lead.id], eventIds);
    const mails = await deleteLeadRows(tx, lead, eventIds, resultIds);
    const summary = {
      leadId: lead.id,
      resultDeleted: resultIds[0] ?? null,
      outboxEventsDeleted: eventIds.length,
      mailsDeleted: Math.max(mails, files.filter(Boolean).length),
    };
    if (opts.trail !== false)
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
  const {
    leads: found,
    results,
    events,
    deliveries,
    attempts,
    mails,
    notes,
  } = await subjectRecords(db, accountId, email);
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
    leadNotes: notes,
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

import { z } from 'zod';
import type { Db } from '../../db/engine/database.ts';
import {
  type AccountChanges,
  type AccountRow,
  findAccountById,
  listAccounts as listAccountRows,
  updateAccount as updateAccountRow,
} from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { listLicensesByAccount } from '../../db/repos/licenses-repo.ts';
import { diff } from '../../lib/audit-diff.ts';
import { notFound } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import type { ActingAs, LicensingDeps } from '../deps.ts';
import {
  countConsentVersions,
  findCurrentConsent,
  publishConsentText,
  renamedDefaultConsent,
} from './consent.ts';
import { FirmContactUpdateSchema, mergeContact, sameContact } from './firm-contact.ts';

/** `account update` (admin API, CLI, portal): the firm settings the widget, PDF, alerts and portal read. */
export const AccountUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    consentText: z
      .string()
      .trim()
      .min(20, 'Consent text must be at least 20 characters')
      .max(2000)
      .optional(),
    /** The consent text in Spanish, for Spanish widgets (a new version in its own language). */
    consentTextEs: z
      .string()
      .trim()
      .min(20, 'Consent text must be at least 20 characters')
      .max(2000)
      .optional(),
    alertEmails: z.array(z.email('Expected an e-mail address such as office@firm.com')).max(10).optional(),
    accentColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'Expected a colour as #rrggbb')
      .transform((v) => v.toLowerCase())
      .optional(),
    contact: FirmContactUpdateSchema.optional(),
    /** Issue 40: erase leads not converted this many months after their last change; null turns it off. */
    leadRetentionMonths: z
      .number()
      .int()
      .min(3, 'The retention window is 3 to 84 months')
      .max(84, 'The retention window is 3 to 84 months')
      .nullable()
      .optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change: give at least one field');

export type AccountUpdate = z.output<typeof AccountUpdateSchema>;

function toAccountView(account: AccountRow) {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    accentColor: account.accentColor,
    alertEmails: account.alertEmails,
    contact: account.contact ?? {},
    leadRetentionMonths: account.leadRetentionMonths,
    stripeCustomerId: account.stripeCustomerId,
    createdAt: account.createdAt.toISOString(),
  };
}

/** `account list`: every firm (operator only; the portal never lists accounts). */
export async function listAccounts(deps: { db: Db }) {
  const rows = await listAccountRows(deps.db);
  return Promise.all(
    rows.map(async (a) => ({
      ...toAccountView(a),
      licenses: (await listLicensesByAccount(deps.db, a.id)).length,
    })),
  );
}

/** `account show`: the firm's settings, its consent text in force and its license ids. */
export async function showAccount(deps: { db: Db }, accountId: string, scope?: { accountId?: string }) {
  const account = await findAccountById(deps.db, accountId);
  if (!account || (scope?.accountId && scope.accountId !== accountId)) throw notFound('account', accountId);
  const consent = await findCurrentConsent(deps.db, accountId);
  const spanish = await findCurrentConsent(deps.db, accountId, 'es');
  return {
    account: {
      ...toAccountView(account),
      consentEs: spanish
        ? {
            id: spanish.id,
            version: spanish.version,
            text: spanish.text,
            createdAt: spanish.createdAt.toISOString(),
          }
        : null,
      consent: consent
        ? {
            id: consent.id,
            version: consent.version,
            text: consent.text,
            createdAt: consent.createdAt.toISOString(),
            versions: await countConsentVersions(deps.db, accountId),
          }
        : null,
      licenseIds: (await listLicensesByAccount(deps.db, accountId)).map((l) => l.id),
    },
  };
}

/**
 * `account update`: display name, lead-alert addresses, brand accent and contact details (each
 * contact field set or cleared on its own) are written to the account;
 * consent text becomes a new consent version (unchanged text keeps the version in force), so a
 * lead keeps pointing at the words its visitor saw. The audit entry records before and after of
 * each changed setting; alert addresses are personal data of the firm's staff, so only their count
 * is written there.
 */
export async function updateAccount(
  deps: Pick<LicensingDeps, 'db' | 'clock' | 'caches'>,
  accountId: string,
  input: AccountUpdate,
  as: ActingAs,
) {
  const account = await findAccountById(deps.db, accountId);
  if (!account || (as.accountId && as.accountId !== accountId)) throw notFound('account', accountId);
  const changes: AccountChanges = {};
  if (input.name !== undefined && input.name !== account.name) changes.name = input.name;
  if (input.accentColor !== undefined && input.accentColor !== account.accentColor)
    changes.accentColor = input.accentColor;
  const contact = input.contact ? mergeContact(account.contact, input.contact) : account.contact;
  if (!sameContact(contact, account.contact)) changes.contact = contact;
  if (input.leadRetentionMonths !== undefined && input.leadRetentionMonths !== account.leadRetentionMonths)
    changes.leadRetentionMonths = input.leadRetentionMonths;
  const emails = input.alertEmails?.map((e) => e.toLowerCase()).filter((e, i, all) => all.indexOf(e) === i);
  if (emails && emails.join(',') !== account.alertEmails.join(',')) changes.alertEmails = emails;
  // A renamed firm still on the default consent gets the default with its new name.
  const consentText =
    input.consentText ??
    (changes.name ? await renamedDefaultConsent(deps.db, accountId, account.name, changes.name) : undefined);
  const before = consentText !== undefined ? await findCurrentConsent(deps.db, accountId) : undefined;
  const consent =
    consentText !== undefined ? await publishConsentText(deps, accountId, consentText) : undefined;
  const consentChanged = consent !== undefined && consent.id !== before?.id;
  // Spanish: the firm's own words, or (renamed, still on the default) the default with its new name.
  const consentTextEs =
    input.consentTextEs ??
    (changes.name
      ? await renamedDefaultConsent(deps.db, accountId, account.name, changes.name, 'es')
      : undefined);
  const beforeEs =
    consentTextEs !== undefined ? await findCurrentConsent(deps.db, accountId, 'es') : undefined;
  const consentEs =
    consentTextEs !== undefined ? await publishConsentText(deps, accountId, consentTextEs, 'es') : undefined;
  const consentEsChanged = consentEs !== undefined && consentEs.id !== beforeEs?.id;
  if (Object.keys(changes).length === 0 && !consentChanged && !consentEsChanged)
    return showAccount(deps, accountId);
  if (Object.keys(changes).length > 0) {
    await updateAccountRow(deps.db, accountId, changes);
    // Embed sessions carry the firm's name, accent and contact details.
    await invalidateCaches(deps);
  }
  const { alertEmails: _personal, contact: _contact, ...auditable } = changes;
  const audited = diff(account, auditable);
  if (changes.alertEmails) {
    Object.assign(audited.before, { alertEmails: `${account.alertEmails.length} addresses` });
    Object.assign(audited.after, { alertEmails: `${changes.alertEmails.length} addresses` });
  }
  if ('contact' in changes) {
    // Which contact fields changed, not their values (a direct line may be a person's).
    const keys = ['phone', 'email', 'website', 'address', 'callToAction', 'timeZone'] as const;
    const changed = keys.filter((k) => (account.contact?.[k] ?? null) !== (changes.contact?.[k] ?? null));
    Object.assign(audited.after, { contactFieldsChanged: changed });
  }
  if (consentChanged) {
    Object.assign(audited.before, { consentVersion: before?.version ?? null });
    Object.assign(audited.after, { consentVersion: consent.version });
  }
  if (consentEsChanged) {
    Object.assign(audited.before, { consentVersionEs: beforeEs?.version ?? null });
    Object.assign(audited.after, { consentVersionEs: consentEs.version });
  }
  await recordAudit(deps.db, {
    accountId,
    actor: as.actor,
    action: 'account.updated',
    subject: accountId,
    data: audited,
    at: deps.clock.now(),
  });
  return showAccount(deps, accountId);
}

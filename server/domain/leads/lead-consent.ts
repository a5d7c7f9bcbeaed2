import { createHash } from 'node:crypto';
import type { LeadConsent } from '../../contracts/lead.ts';
import type { LeadRow } from '../../db/repos/leads-repo.ts';

/** The consent as given, as the lead carries it: declared in server/contracts/lead.ts. */
export type { LeadConsent };

// The text stored on the lead is the version's text verbatim, so its hash is the version's hash;
// computing it here saves a join on every list and cannot disagree with the words kept.
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export const leadConsent = (
  row: Pick<
    LeadRow,
    | 'consentVersionId'
    | 'consentText'
    | 'consentedAt'
    | 'page'
    | 'pageVerified'
    | 'consentAssumed'
    | 'consentLanguage'
  >,
): LeadConsent => ({
  versionId: row.consentVersionId,
  text: row.consentText,
  sha256: sha256(row.consentText),
  agreedAt: row.consentedAt.toISOString(),
  page: row.page,
  pageVerified: row.pageVerified,
  assumed: row.consentAssumed,
  language: row.consentLanguage,
});

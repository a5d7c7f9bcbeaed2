import { createHash } from 'node:crypto';
import type { LeadRow } from '../../db/repos/leads-repo.ts';

/**
 * The consent a lead carries, the same object in REST, webhooks, the alert mail, the CSV and MCP:
 * the version the visitor agreed to (its id and exact text), the SHA-256 of that text (hex, the
 * hash the firm's consent version was published with), when they agreed, and the page where they
 * agreed (origin + path, as reported by the host page; null when it was not reported).
 */
export interface LeadConsent {
  versionId: string | null;
  text: string;
  sha256: string;
  agreedAt: string;
  page: string | null;
  /**
   * True when the reported page was on the embed session's origin and kept; false when the widget
   * reported a page elsewhere, which was dropped (`page` is then null); null when no page was
   * reported, and for leads stored before pages were checked.
   */
  pageVerified: boolean | null;
  /**
   * True when the widget named no version (a widget older than consent versions in the session):
   * the version stored is the one in force when the lead arrived, not one the visitor was shown.
   */
  assumed: boolean;
}

// The text stored on the lead is the version's text verbatim, so its hash is the version's hash;
// computing it here saves a join on every list and cannot disagree with the words kept.
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export const leadConsent = (
  row: Pick<
    LeadRow,
    'consentVersionId' | 'consentText' | 'consentedAt' | 'page' | 'pageVerified' | 'consentAssumed'
  >,
): LeadConsent => ({
  versionId: row.consentVersionId,
  text: row.consentText,
  sha256: sha256(row.consentText),
  agreedAt: row.consentedAt.toISOString(),
  page: row.page,
  pageVerified: row.pageVerified,
  assumed: row.consentAssumed,
});

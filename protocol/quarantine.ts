/**
 * Why a lead was held as possible spam, and how to say it to a firm: shared by the server's mails
 * and the portal so both name a reason the same way.
 */
const QUARANTINE_REASON_LABELS = {
  network_burst: 'many leads from one network',
  link_in_name: 'a link in the name',
  disposable_email: 'a throwaway e-mail domain',
  block_burst: 'many leads from one address block',
  no_proof_of_work: 'no valid proof of work',
} as const;

export type QuarantineReason = keyof typeof QUARANTINE_REASON_LABELS;

export const quarantineReasonLabel = (reason: string): string =>
  (QUARANTINE_REASON_LABELS as Record<string, string>)[reason] ?? reason;

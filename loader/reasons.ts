import type { ErrorPayload, ErrorReason } from '../protocol/index.ts';

/**
 * Failures that another try on this page cannot fix (`token_denied`, `domain_not_allowed`,
 * `invalid_input`, `wrong_key_kind`): the session stays refused until reload. The others
 * (`network`, `rate_limited`, `unknown`) may pass.
 */
export const isPermanent = (reason: ErrorReason): boolean => !/^(net|rat|unk)/.test(reason);

/**
 * Maps the API's refusal of `license/activate` to a reason. The message is the API's own
 * (`error.message`, written to be acted on: which key goes where, which domain to add), so the
 * loader carries no copy of those sentences; a short one stands in when the body has none.
 */
export function reasonFor(status: number, code?: string, message?: string): ErrorPayload {
  // Any other 4xx (unknown, expired or revoked key; a malformed body) is the key's fault.
  const reason: ErrorReason =
    // WRONG_KEY_KIND and DOMAIN_NOT_ALLOWED are their reasons in upper case.
    code === 'WRONG_KEY_KIND' || code === 'DOMAIN_NOT_ALLOWED'
      ? (code.toLowerCase() as ErrorReason)
      : status === 429
        ? 'rate_limited'
        : status < 500
          ? 'token_denied'
          : 'unknown';
  return { reason, message: message || `svc API: ${status}` };
}

export const NETWORK_ERROR: ErrorPayload = {
  reason: 'network',
  message: 'The svc API could not be reached.',
};

/** Anything thrown inside the loader becomes a payload; never a raw exception for the host page. */
export function toErrorPayload(error: unknown): ErrorPayload {
  return (error as ErrorPayload)?.reason
    ? (error as ErrorPayload)
    : { reason: 'unknown', message: String(error) };
}

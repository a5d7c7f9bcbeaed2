import type { ErrorPayload, ErrorReason } from '../protocol/index.ts';

/** Failures that another try on this page cannot fix: the session stays refused until reload. */
export const PERMANENT_REASONS: readonly ErrorReason[] = [
  'token_denied',
  'domain_not_allowed',
  'invalid_input',
];

/** Maps the API's answer to `license/activate` to a reason and a sentence the site's developer can act on. */
export function reasonFor(status: number, code?: string): ErrorPayload {
  if (code === 'DOMAIN_NOT_ALLOWED' || (status === 403 && code === undefined)) {
    return {
      reason: 'domain_not_allowed',
      message: 'This site is not in the license’s allowed domains. Add it in the svc portal.',
    };
  }
  if (status === 401 || status === 403) {
    return {
      reason: 'token_denied',
      message: 'The license key was refused: check data-key, and that the license is active and paid.',
    };
  }
  if (status === 429) {
    return { reason: 'rate_limited', message: 'Too many requests from this visitor; try again in a minute.' };
  }
  if (status === 400) {
    return {
      reason: 'invalid_input',
      message: 'The embed request was refused: check data-key and data-calculator.',
    };
  }
  return { reason: 'unknown', message: `The svc API answered ${status}; try again later.` };
}

export const NETWORK_ERROR: ErrorPayload = {
  reason: 'network',
  message: 'The svc API could not be reached. Check the connection, or data-api if you set it.',
};

/** Anything thrown inside the loader becomes a payload; never a raw exception for the host page. */
export function toErrorPayload(error: unknown): ErrorPayload {
  if (typeof error === 'object' && error !== null && 'reason' in error && 'message' in error) {
    return error as ErrorPayload;
  }
  return { reason: 'unknown', message: 'The svc loader failed unexpectedly; see the console.' };
}

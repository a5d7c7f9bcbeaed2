/**
 * What the delivery inspector keeps of each attempt: the request we sent and the answer we got,
 * with credentials and cookies taken out before anything is written. Headers whose name says
 * they carry a credential lose their value; bodies lose the values of credential-named fields,
 * bearer/basic values, JWTs and well-known key formats. Bodies are capped.
 */
export const REDACTED = '[redacted]';
/** At most this much of a request or response body is stored per attempt. */
export const INSPECTOR_BODY_BYTES = 4096;
const MAX_HEADERS = 50;
const MAX_HEADER_VALUE = 512;

const SENSITIVE_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|webhook-signature)$|token|secret|passw|session|auth|signature|api-?key|credential|cookie/i;
const CREDENTIAL_WORD =
  '[\\w.-]*(?:token|secret|passw(?:or)?d?|authorization|api[_-]?key|cookie|session|credential)[\\w.-]*';
const JSON_FIELD = new RegExp(`("${CREDENTIAL_WORD}"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`, 'gi');
const FORM_FIELD = new RegExp(`((?:^|[&?;\\s])${CREDENTIAL_WORD}=)[^&;\\s]+`, 'gi');
const SCHEME_VALUE = /\b(Bearer|Basic|Token)\s+[\w.~+/=-]{4,}/gi;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]+/g;
const KEY_FORMATS =
  /\b(?:whsec_|svc_pat_|svc_pk_|sk_live_|sk_test_|rk_live_|ghp_|xox[abp]-)[\w+/=-]{6,}|\bSVC-[0-9A-Z]{5}(?:-[0-9A-Z]{5}){3,}/g;

export function redactHeaders(
  headers: Record<string, string | string[] | number | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, MAX_HEADERS)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[key] = SENSITIVE_HEADER.test(key) ? REDACTED : redactText(text).slice(0, MAX_HEADER_VALUE);
  }
  return out;
}

function redactText(text: string): string {
  return text
    .replace(JSON_FIELD, (_m, field: string) => `${field}"${REDACTED}"`)
    .replace(FORM_FIELD, (_m, field: string) => `${field}${REDACTED}`)
    .replace(SCHEME_VALUE, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(KEY_FORMATS, REDACTED);
}

/** A body as stored: redacted, then cut to `INSPECTOR_BODY_BYTES` on a character boundary. */
export function redactBody(text: string): { body: string; truncated: boolean } {
  const redacted = redactText(text);
  const bytes = Buffer.from(redacted, 'utf8');
  if (bytes.length <= INSPECTOR_BODY_BYTES) return { body: redacted, truncated: false };
  let cut = bytes.subarray(0, INSPECTOR_BODY_BYTES).toString('utf8');
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return { body: cut, truncated: true };
}

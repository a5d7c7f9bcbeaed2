import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Logger } from 'pino';
import { PRIVATE_HOST_REFUSAL } from './private-hosts.ts';
import { INSPECTOR_BODY_BYTES } from './redact.ts';
import {
  guardedLookup,
  hostOf,
  isBlockedAddress,
  type Resolver,
  UnsafeDestinationError,
} from './ssrf-guard.ts';

/** At most this much of a receiver's answer is read and kept (the rest is discarded unread). */
export const RESPONSE_EXCERPT_BYTES = INSPECTOR_BODY_BYTES;

export interface SendOptions {
  timeoutMs: number;
  resolver: Resolver;
  /** Host names (as written in the URL) that may resolve to private addresses. */
  allowPrivateHosts: readonly string[];
  /** Gets what the firm is not told: which address a refused name resolved to. */
  logger?: Pick<Logger, 'warn'>;
  /** Trusted CA certificates (PEM) replacing the system's: only tests that serve HTTPS with a self-signed certificate set it. */
  ca?: string;
}

/**
 * What the firm's delivery log says about a refused or unresolvable destination: one sentence
 * for both (the one registration gives for a private host, naming WEBHOOK_ALLOW_PRIVATE_HOSTS), so
 * the log cannot be used to ask our resolver which internal names exist and where they point. The
 * detail goes to the server log.
 */
export const DESTINATION_NOT_ALLOWED = PRIVATE_HOST_REFUSAL;
const DNS_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA']);

export interface SendOutcome {
  statusCode: number | null;
  /** Set when no HTTP answer came: timeout, refused destination, connection error. */
  error: string | null;
  excerpt: string;
  /** The receiver sent more than `RESPONSE_EXCERPT_BYTES`. */
  truncated: boolean;
  /**
   * No retry can succeed: the destination is private or has no address (NXDOMAIN). Both end the
   * same way, so which one it was stays unsaid. A resolver that is only unavailable is retried.
   */
  permanent?: boolean;
  /** Exactly what was sent (not yet redacted: the caller redacts before storing). */
  requestHeaders: Record<string, string>;
  /** The answer's headers, when one came. */
  responseHeaders: Record<string, string | string[] | undefined> | null;
  durationMs: number;
}

/**
 * POSTs one JSON body. No redirects are followed (a 3xx is an answer like any other non-2xx), the
 * destination address is checked when the socket connects, and the whole exchange, body included,
 * must finish within `timeoutMs`.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendOutcome> {
  return send(
    'POST',
    url,
    body,
    {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'svc-webhooks/1',
    },
    opts,
  );
}

/**
 * POSTs one body of the given content type to a CRM under the same rules as `postJson` (the
 * address guard, no redirects, the whole exchange within `timeoutMs`): how destinations deliver.
 */
export function postToVendor(
  url: string,
  body: string,
  contentType: string,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendOutcome> {
  return send(
    'POST',
    url,
    body,
    {
      ...headers,
      'content-type': contentType,
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'svc-destinations/1',
    },
    opts,
  );
}

/**
 * GETs one document under the same rules as `postJson` (no redirects, address checked at connect
 * time, whole exchange within `timeoutMs`, at most `RESPONSE_EXCERPT_BYTES` read): how the OAuth
 * server fetches a client's metadata document.
 */
export function getDocument(
  url: string,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendOutcome> {
  return send('GET', url, undefined, headers, opts);
}

function send(
  method: 'GET' | 'POST',
  url: string,
  body: string | undefined,
  requestHeaders: Record<string, string>,
  opts: SendOptions,
): Promise<SendOutcome> {
  const started = performance.now();
  let responseHeaders: SendOutcome['responseHeaders'] = null;
  let truncated = false;
  const done = (statusCode: number | null, error: string | null, excerpt = ''): SendOutcome => ({
    statusCode,
    error,
    excerpt,
    truncated,
    requestHeaders,
    responseHeaders,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(null, 'invalid URL'));
  }
  const allowPrivate = opts.allowPrivateHosts.includes(hostOf(target));
  const literal = hostOf(target);
  if (!allowPrivate && isIP(literal) && isBlockedAddress(literal)) {
    return Promise.resolve({ ...done(null, DESTINATION_NOT_ALLOWED), permanent: true });
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = client.request(
      target,
      {
        method,
        agent: false,
        headers: requestHeaders,
        ...(allowPrivate ? {} : { lookup: guardedLookup(opts.resolver) }),
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      (res) => {
        responseHeaders = res.headers;
        const chunks: Buffer[] = [];
        let size = 0;
        const end = () => {
          finish(done(res.statusCode ?? null, null, Buffer.concat(chunks).toString('utf8')));
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          const room = RESPONSE_EXCERPT_BYTES - size;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size += chunk.length;
          if (size > RESPONSE_EXCERPT_BYTES) truncated = true;
          if (size >= RESPONSE_EXCERPT_BYTES) end();
        });
        res.on('end', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      finish(done(null, `timed out after ${opts.timeoutMs} ms`));
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      const permanent =
        error instanceof UnsafeDestinationError || code === 'UNSAFE_DESTINATION' || code === 'ENOTFOUND';
      const refused = permanent || DNS_FAILURES.has(code);
      if (refused) opts.logger?.warn({ host: literal, err: error.message }, 'outbound destination refused');
      const outcome = done(
        null,
        refused ? DESTINATION_NOT_ALLOWED : `${code}: ${error.message}`.slice(0, 300),
      );
      finish(permanent ? { ...outcome, permanent } : outcome);
    });
    if (body === undefined) req.end();
    else req.end(body);
  });
}

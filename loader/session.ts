import type { ErrorPayload } from '../protocol/index.ts';
import { NETWORK_ERROR, PERMANENT_REASONS, reasonFor, toErrorPayload } from './reasons.ts';

/** What `POST /v1/api/license/activate` answers. */
export interface EmbedSession {
  token: string;
  expiresAt: string;
  calculators?: string[];
}

export interface SessionHooks {
  /** A renewed token, to hand to every widget. */
  onRenewed(session: EmbedSession): void;
  /** Renewal failed for good (the license ended, the domain was removed). */
  onRenewFailed(error: ErrorPayload): void;
}

/** Renew this long before expiry, so a slow network never leaves a widget holding a dead token. */
export const RENEW_BEFORE_MS = 60_000;
/** A token younger than this that the API refuses will not be fixed by asking again. */
const FRESH_MS = 10_000;
const RETRY_MS = [2_000, 5_000, 15_000, 30_000];
const MAX_RETRIES = 8;

/**
 * The page's one embed session: one cached promise per load (every widget shares it), renewed
 * before expiry. Transient failures (network, 429) are retried with backoff and reach the
 * widgets through `onRenewed`; a refusal (bad key, domain) stays cached, so a page of widgets
 * asks only once.
 */
export function createSession(config: { apiUrl: string; licenseKey: string }, hooks: SessionHooks) {
  let current: Promise<EmbedSession> | undefined;
  let issuedAt = 0;
  let expiresAt = 0;
  let renewing: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retries = 0;

  async function activate(): Promise<EmbedSession> {
    let res: Response;
    try {
      res = await fetch(`${config.apiUrl}/v1/api/license/activate`, {
        method: 'POST',
        mode: 'cors',
        credentials: 'omit',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ licenseKey: config.licenseKey }),
      });
    } catch {
      throw NETWORK_ERROR;
    }
    const body = (await res.json().catch(() => undefined)) as
      | (EmbedSession & { error?: { code?: string } })
      | undefined;
    if (!res.ok) throw reasonFor(res.status, body?.error?.code);
    if (!body || typeof body.token !== 'string' || typeof body.expiresAt !== 'string') {
      throw reasonFor(502);
    }
    return body;
  }

  function schedule(ms: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => void renew(), Math.max(1_000, ms));
  }

  function start(): Promise<EmbedSession> {
    expiresAt = 0;
    const attempt = activate().then(
      (session) => {
        issuedAt = Date.now();
        expiresAt = Date.parse(session.expiresAt);
        retries = 0;
        const left = expiresAt - issuedAt;
        // Short-lived tokens (a license ending soon) are renewed halfway instead.
        schedule(Math.max(left - RENEW_BEFORE_MS, left / 2));
        return session;
      },
      (error: unknown) => {
        const payload = toErrorPayload(error);
        if (!PERMANENT_REASONS.includes(payload.reason)) {
          if (current === attempt) current = undefined;
          // The network may come back: try again a few times, further apart each time.
          if (retries < MAX_RETRIES) schedule(RETRY_MS[Math.min(retries++, RETRY_MS.length - 1)]!);
        }
        throw payload;
      },
    );
    current = attempt;
    return attempt;
  }

  /** Fetches a new token now (once, however many ask); widgets keep the old one until then. */
  function renew(): Promise<void> {
    renewing ??= start()
      .then(hooks.onRenewed, (error: ErrorPayload) => {
        if (PERMANENT_REASONS.includes(error.reason)) hooks.onRenewFailed(error);
      })
      .catch((error: unknown) => console.error('[svc] token renewal failed', error))
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  }

  return {
    /** The session, fetched once per load and shared. */
    get(): Promise<EmbedSession> {
      // A timer may have slept with the laptop: never hand out a token that is already dead.
      if (expiresAt && Date.now() > expiresAt - 5_000) current = undefined;
      return current ?? start();
    },
    /** A widget says the API refused its token: renew, unless the token is brand new. */
    renewNow(): Promise<void> | 'fresh' {
      if (Date.now() - issuedAt < FRESH_MS) return 'fresh';
      return renew();
    },
    /** No widgets left (a single-page app unmounted them): stop renewing; the next mount starts over. */
    stop(): void {
      clearTimeout(timer);
      current = undefined;
      expiresAt = 0;
    },
  };
}

export type Session = ReturnType<typeof createSession>;

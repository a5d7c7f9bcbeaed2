import type { ConsentInfo, FirmInfo } from '../protocol/index.ts';
import { isPermanent, NETWORK_ERROR, reasonFor, toErrorPayload } from './reasons.ts';

/** What `POST /v1/api/license/activate` answers. */
export interface EmbedSession {
  token: string;
  expiresAt: string;
  calculators?: string[];
  /** The firm's name, accent, phone and e-mail from its settings. */
  firm?: FirmInfo;
  /** The firm's consent version in force, handed to the widget as it is. */
  consent?: ConsentInfo;
}

// These two stay exported although nothing imports them: rolldown inlines an exported constant's
// value at its use, and keeps a module-local one as a variable, 7 bytes more gzipped in loader.js
// (which sits next to its 3,300-byte budget). `@public` tells knip so.

/**
 * A token younger than this is handed out again instead of asking the API for another.
 * @public
 */
export const FRESH_MS = 10_000;
/**
 * A cached token this close to expiry is not handed out.
 * @public
 */
export const EXPIRY_MARGIN_MS = 60_000;

async function activate(config: { apiUrl: string; licenseKey: string }): Promise<EmbedSession> {
  let res: Response;
  try {
    res = await fetch(`${config.apiUrl}/v1/api/license/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ licenseKey: config.licenseKey }),
    });
  } catch {
    throw NETWORK_ERROR;
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw reasonFor(res.status, body.error?.code, body.error?.message);
  return body as EmbedSession;
}

/**
 * The page's one embed session: one cached promise per load, shared by every widget. A refusal
 * (bad key, domain) stays cached, so a page of widgets asks only once; a transient failure is
 * forgotten, so the next ask tries again. Renewal is driven by the widgets (each asks over its
 * port before its token expires, and backs off after a network failure): the loader keeps no
 * timers, and a token that was just fetched serves every widget that asks at the same time.
 */
export function createSession(config: { apiUrl: string; licenseKey: string }) {
  let current: Promise<EmbedSession> | undefined;
  let issuedAt = 0;
  let expiresAt = 0;

  function get(): Promise<EmbedSession> {
    if (current && expiresAt && Date.now() > expiresAt - EXPIRY_MARGIN_MS) current = undefined;
    if (current) return current;
    const attempt: Promise<EmbedSession> = activate(config).then(
      (session) => {
        issuedAt = Date.now();
        expiresAt = Date.parse(session.expiresAt);
        return session;
      },
      (error: unknown) => {
        const payload = toErrorPayload(error);
        if (!isPermanent(payload.reason) && current === attempt) current = undefined;
        throw payload;
      },
    );
    expiresAt = 0;
    current = attempt;
    return attempt;
  }

  return {
    /** The session, fetched once and shared. */
    get,
    /** A widget wants a newer token: a fresh one is shared, an older one is replaced. */
    renew(): Promise<EmbedSession> {
      if (Date.now() - issuedAt > FRESH_MS) current = undefined;
      return get();
    },
    /** No widgets left: forget the session; the next mount starts over. */
    stop(): void {
      current = undefined;
    },
  };
}

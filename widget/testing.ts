import { vi } from 'vitest';
import type { ConsentInfo, EventType, FirmInfo, LoaderPortMessage, PayloadOf } from '../protocol/index.ts';
import type { Bridge } from './bridge.ts';
import { sha256Hex } from './proof-of-work.ts';

/** Test helpers for the widget: a bridge double and JSON answers for a stubbed fetch. */

export const API = 'https://api.svc.test';

/** A firm's consent version as an embed session hands it over (the firm's words, not ours). */
export const TEST_CONSENT: ConsentInfo = {
  versionId: 'cv_test1',
  text: 'Smith & Lee LLP may call or e-mail me about my estate (firm text, version 3).',
  sha256: '0'.repeat(64),
};

export function fakeBridge() {
  const emitted: { type: EventType; payload: unknown }[] = [];
  const listeners = new Set<(m: LoaderPortMessage) => void>();
  let renewWith: string | undefined;
  const bridge: Bridge = {
    widgetId: 'w1',
    hostOrigin: 'https://firm.test',
    emit<T extends EventType>(type: T, payload: PayloadOf[T]) {
      emitted.push({ type, payload });
    },
    hello: vi.fn(),
    onSession(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    requestToken: vi.fn(async () => {
      if (!renewWith) return false;
      for (const l of listeners)
        l({ type: 'svc-token', v: 1, token: renewWith, expiresAt: '2099-01-01T00:00:00Z' });
      return true;
    }),
  };
  return {
    bridge,
    emitted,
    of: (type: EventType) => emitted.filter((e) => e.type === type).map((e) => e.payload),
    init(token = 'token-1', firm?: FirmInfo, consent: ConsentInfo | undefined = TEST_CONSENT) {
      for (const l of listeners)
        l({
          type: 'svc-init',
          v: 1,
          token,
          expiresAt: '2099-01-01T00:00:00Z',
          apiUrl: API,
          ...(firm ? { firm } : {}),
          ...(consent ? { consent } : {}),
        });
    },
    refuse(reason: 'token_denied' | 'domain_not_allowed', message = 'refused') {
      for (const l of listeners) l({ type: 'svc-session-error', v: 1, reason, message });
    },
    /** The next token request is answered with this token. */
    renewWith(token: string) {
      renewWith = token;
    },
  };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const apiError = (status: number, code: string, details?: unknown) =>
  json(status, { error: { code, message: 'server wording', status, ...(details ? { details } : {}) } });

/** Stubs fetch with answers in order (the last one repeats) and records each request. */
export function stubFetch(...answers: (() => Response | Promise<Response>)[]) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, requests };
}

const EASY_SALT = 'e2e0a1b2c3d4?expires=9999999999&license=lic_test';
/** A proof-of-work challenge whose answer is 3 (the signature is not checked in the widget). */
export const EASY_CHALLENGE = {
  algorithm: 'SHA-256',
  challenge: sha256Hex(`${EASY_SALT}3`),
  maxnumber: 10,
  salt: EASY_SALT,
  signature: '0'.repeat(64),
};

/**
 * `stubFetch` for lead posts: `POST …/leads/challenge` answers EASY_CHALLENGE (kept apart in
 * `challenges`); every other request gets the answers in order, as with `stubFetch`.
 */
export function stubLeadFetch(...answers: (() => Response | Promise<Response>)[]) {
  const requests: Request[] = [];
  const challenges: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/v1/api/leads/challenge')) {
      challenges.push(request);
      return json(200, EASY_CHALLENGE);
    }
    requests.push(request);
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, requests, challenges };
}

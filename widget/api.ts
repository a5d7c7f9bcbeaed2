import type { ErrorPayload, ErrorReason, ResultPayload } from '../protocol/index.ts';
import { lang } from './i18n/t.ts';
import type { Challenge } from './proof-of-work.ts';

export interface Credentials {
  token: string;
  /** API base without `/v1`. */
  apiUrl: string;
}

export interface FieldProblem {
  path: string;
  message: string;
}

/** A failed call, with the reason the host page receives in `svc-error`. */
export class ApiError extends Error {
  constructor(
    readonly payload: ErrorPayload,
    readonly status = 0,
    readonly details: FieldProblem[] = [],
  ) {
    super(payload.message);
  }
}

/** Any failure as an ApiError: a thrown ApiError as it is, anything else as `unknown`. */
export const asApiError = (e: unknown): ApiError =>
  e instanceof ApiError ? e : new ApiError({ reason: 'unknown', message: 'Something went wrong.' });

/** Field problems by field name (a calculation's `inputs.` prefix dropped), for the form to show. */
export const problemsByField = (problems: FieldProblem[]): Record<string, string> =>
  Object.fromEntries(problems.map((p) => [p.path.replace(/^inputs\./, ''), p.message]));

/** What `POST /v1/api/calc/estimate` answers. */
export interface EstimateResponse extends ResultPayload {
  lineItems: { label: string; amount: number; kind?: string }[];
  notes: string[];
  disclaimer: string;
  createdAt: string;
}

const MESSAGES: Record<ErrorReason, string> = {
  token_denied: 'This calculator’s session has ended. Reload the page to continue.',
  domain_not_allowed: 'This calculator is not licensed for this website.',
  network: 'The calculator could not reach its server. Check your connection and try again.',
  rate_limited: 'Too many requests just now. Please wait a minute and try again.',
  invalid_input: 'Some answers need another look.',
  wrong_key_kind: 'This calculator is not set up correctly on this website.',
  resize_loop: 'This calculator could not lay itself out on this page.',
  unknown: 'Something went wrong on our side. Please try again.',
};

function reasonOf(status: number, code: string | undefined): ErrorReason {
  if (code === 'DOMAIN_NOT_ALLOWED') return 'domain_not_allowed';
  if (status === 401 || status === 403) return 'token_denied';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'invalid_input';
  return 'unknown';
}

/** A refused response as an ApiError, with the field details of a 400. */
async function toApiError(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => ({}))) as {
    error?: { code?: string; details?: FieldProblem[] };
  };
  const reason = reasonOf(res.status, body.error?.code);
  const details = Array.isArray(body.error?.details) ? body.error.details : [];
  return new ApiError({ reason, message: MESSAGES[reason] }, res.status, details);
}

const GATEWAY = [408, 502, 503, 504];
/** No request waits longer than this for its answer: an AbortController ends it, so no button spins forever. */
export const REQUEST_TIMEOUT_MS = 12_000;
/** Waits before each retry of a lead post (network failure, timeout or gateway error): bounded, then the visitor decides. */
export const LEAD_RETRY_DELAYS_MS = [1_000, 3_000];

export interface ApiDeps {
  credentials(): Credentials | undefined;
  /** Asks the loader for a new token; true when one arrived. */
  renew(): Promise<boolean>;
  /** The host page (origin + path) the loader reported, sent as `page` with calculations and leads. */
  page?(): string | undefined;
}

/**
 * The view signal (`POST /v1/api/views`): sent once, when the widget is ready; best effort, so no
 * retry, no renewal, and a failure is ignored (it only costs the firm one view in its funnel). The
 * language goes with it (`en` or `es`), so the funnel counts Spanish widgets apart.
 */
export function sendView(credentials: Credentials, calculator: string, page: string | undefined): void {
  fetch(`${credentials.apiUrl}/v1/api/views`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.token}` },
    body: JSON.stringify({ calculator, page, language: lang }),
    keepalive: true,
  }).catch(() => {});
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** fetch with a deadline. AbortController rather than `AbortSignal.timeout`, which older browsers lack. */
async function fetchWithin(url: string, init: RequestInit): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The widget's calls (plain fetch: no HTTP library in the page), with the embed token, each ended
 * after REQUEST_TIMEOUT_MS. A 401 (the token expired while the laptop slept) asks the loader for a
 * fresh token and tries once more. Only lead posts are retried, after a network failure, a timeout
 * or a gateway error, with the delays in `retry`: they carry an Idempotency-Key, so a retry never
 * stores a lead twice. Uses no API that needs a secure context (many firms' sites are plain HTTP).
 */
export function createApi(deps: ApiDeps) {
  async function post(
    path: string,
    json: unknown,
    options: { headers?: Record<string, string>; retry?: number[] } = {},
  ): Promise<Response> {
    let renewed = false;
    const retry = options.retry ?? [];
    const body = JSON.stringify(json);
    for (let attempt = 0; ; attempt++) {
      const credentials = deps.credentials();
      if (!credentials) {
        throw new ApiError({ reason: 'token_denied', message: 'The calculator is still connecting.' });
      }
      const again = attempt < retry.length;
      let res: Response;
      try {
        res = await fetchWithin(`${credentials.apiUrl}/v1/api/${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${credentials.token}`,
            ...options.headers,
          },
          body,
        });
      } catch {
        if (again) {
          await pause(retry[attempt]!);
          continue;
        }
        throw new ApiError({ reason: 'network', message: MESSAGES.network });
      }
      if (res.ok) return res;
      if (GATEWAY.includes(res.status) && again) {
        await pause(retry[attempt]!);
        continue;
      }
      if (res.status === 401 && !renewed && (await deps.renew())) {
        renewed = true;
        continue;
      }
      throw await toApiError(res);
    }
  }
  /** The page, and the visitor's language (`en` or `es`: results and leads keep it). */
  const withPage = <T extends object>(body: T) => {
    const page = deps.page?.();
    return { ...body, ...(page && { page }), language: lang };
  };

  return {
    estimate: async (body: { calculator: string; inputs: Record<string, unknown> }) =>
      (await post('calc/estimate', withPage(body))).json() as Promise<EstimateResponse>,
    submitLead: async (body: Record<string, unknown>, idempotencyKey: string) =>
      (
        await post('leads', withPage(body), {
          headers: { 'idempotency-key': idempotencyKey },
          retry: LEAD_RETRY_DELAYS_MS,
        })
      ).json() as Promise<{
        leadId: string;
      }>,
    report: async (resultId: string) => (await post('pdf/generate', { resultId })).blob(),
    /** A proof-of-work challenge for the next lead (`POST /leads/challenge`). */
    leadChallenge: async () => (await post('leads/challenge', {})).json() as Promise<Challenge>,
  };
}

export type Api = ReturnType<typeof createApi>;

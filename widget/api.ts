import ky, { HTTPError, type KyResponse } from 'ky';
import type { ErrorPayload, ErrorReason, ResultPayload } from '../protocol/index.ts';

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

/** What `POST /v1/api/calc/estimate` answers. */
export interface EstimateResponse extends ResultPayload {
  lineItems: { label: string; amount: number; kind?: string }[];
  disclaimer: string;
  createdAt: string;
}

const MESSAGES: Record<ErrorReason, string> = {
  token_denied: 'This calculator’s session has ended. Reload the page to continue.',
  domain_not_allowed: 'This calculator is not licensed for this website.',
  network: 'The calculator could not reach its server. Check your connection and try again.',
  rate_limited: 'Too many requests just now. Please wait a minute and try again.',
  invalid_input: 'Some answers need another look.',
  unknown: 'Something went wrong on our side. Please try again.',
};

function reasonOf(status: number, code: string | undefined): ErrorReason {
  if (code === 'DOMAIN_NOT_ALLOWED') return 'domain_not_allowed';
  if (status === 401 || status === 403) return 'token_denied';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'invalid_input';
  return 'unknown';
}

export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (!(error instanceof HTTPError)) {
    return new ApiError({ reason: 'network', message: MESSAGES.network });
  }
  const { status } = error.response;
  const body = (await error.response.json().catch(() => ({}))) as {
    error?: { code?: string; details?: FieldProblem[] };
  };
  const reason = reasonOf(status, body.error?.code);
  const details = Array.isArray(body.error?.details) ? body.error.details : [];
  return new ApiError({ reason, message: MESSAGES[reason] }, status, details);
}

export interface ApiDeps {
  credentials(): Credentials | undefined;
  /** Asks the loader for a new token; true when one arrived. */
  renew(): Promise<boolean>;
}

/**
 * The widget's calls, with the embed token. A 401 (the token expired while the laptop slept)
 * asks the loader for a fresh token and tries once more. Only lead posts are retried on
 * gateway errors: they carry an Idempotency-Key, so a retry never stores a lead twice.
 */
export function createApi(deps: ApiDeps) {
  async function post<T>(
    path: string,
    json: unknown,
    read: (res: KyResponse) => Promise<T>,
    options: { headers?: Record<string, string>; retry?: number } = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const credentials = deps.credentials();
      if (!credentials) {
        throw new ApiError({ reason: 'token_denied', message: 'The calculator is still connecting.' });
      }
      try {
        const res = await ky.post(`${credentials.apiUrl}/v1/api/${path}`, {
          json,
          headers: { authorization: `Bearer ${credentials.token}`, ...options.headers },
          timeout: 15_000,
          retry: { limit: options.retry ?? 0, methods: ['post'], statusCodes: [408, 502, 503, 504] },
        });
        return await read(res);
      } catch (error) {
        const failure = await toApiError(error);
        if (failure.status === 401 && attempt === 0 && (await deps.renew())) continue;
        throw failure;
      }
    }
  }

  return {
    estimate: (body: { calculator: string; inputs: Record<string, unknown> }) =>
      post('calc/estimate', body, (res) => res.json<EstimateResponse>()),
    submitLead: (body: Record<string, unknown>, idempotencyKey: string) =>
      post('leads', body, (res) => res.json<{ leadId: string }>(), {
        headers: { 'idempotency-key': idempotencyKey },
        retry: 2,
      }),
    report: (resultId: string) => post('pdf/generate', { resultId }, (res) => res.blob()),
  };
}

export type Api = ReturnType<typeof createApi>;

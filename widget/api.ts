import ky, { HTTPError } from 'ky';
import type { ErrorPayload } from '../protocol/index.ts';

export interface Credentials {
  token: string;
  apiUrl: string;
}

export class ApiError extends Error {
  constructor(
    readonly payload: ErrorPayload,
    readonly details: { path: string; message: string }[] = [],
  ) {
    super(payload.message);
  }
}

async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof HTTPError) {
    const body = (await error.response.json().catch(() => ({}))) as {
      error?: { code?: string; message?: string; details?: { path: string; message: string }[] };
    };
    const status = error.response.status;
    const reason =
      status === 401
        ? 'token_denied'
        : status === 429
          ? 'rate_limited'
          : status === 400
            ? 'invalid_input'
            : 'unknown';
    return new ApiError(
      { reason, message: body.error?.message ?? `The server answered ${status}.` },
      body.error?.details ?? [],
    );
  }
  return new ApiError({
    reason: 'network',
    message: 'The calculator could not reach the server. Check the connection and try again.',
  });
}

/** The widget's HTTP calls, with the embed token; retries are ky's (idempotent methods, and leads carry a key). */
export function createApi(getCredentials: () => Credentials | undefined) {
  const client = (retryPost = false) => {
    const credentials = getCredentials();
    if (!credentials)
      throw new ApiError({ reason: 'token_denied', message: 'The widget has no session yet.' });
    return ky.create({
      prefixUrl: `${credentials.apiUrl}/v1/api`,
      headers: { authorization: `Bearer ${credentials.token}` },
      timeout: 15_000,
      // Only lead posts are retried: they carry an Idempotency-Key, so a retry never duplicates.
      retry: { limit: retryPost ? 2 : 0, methods: ['post'], statusCodes: [408, 502, 503, 504] },
    });
  };
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw error instanceof ApiError ? error : await toApiError(error);
    }
  };
  return {
    estimate: (body: unknown) =>
      call(() => client().post('calc/estimate', { json: body }).json<Record<string, unknown>>()),
    submitLead: (body: unknown, idempotencyKey: string) =>
      call(() =>
        client(true)
          .post('leads', { json: body, headers: { 'idempotency-key': idempotencyKey } })
          .json<{ leadId: string }>(),
      ),
    report: (resultId: string) => call(() => client().post('pdf/generate', { json: { resultId } }).blob()),
  };
}

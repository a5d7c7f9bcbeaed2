import ky, { HTTPError } from 'ky';

/** A refused call, in the API's error shape; `details` name the fields concerned. */
export class PortalError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

let csrfToken = '';
/** The session's CSRF token (from `GET /v1/portal/session`), sent on every write. */
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

const http = ky.create({
  prefixUrl: '/v1/portal/',
  credentials: 'same-origin',
  retry: 0,
  timeout: 20_000,
  hooks: {
    beforeRequest: [
      (request) => {
        if (request.method !== 'GET') request.headers.set('X-CSRF-Token', csrfToken);
      },
    ],
  },
});

async function toPortalError(error: unknown): Promise<PortalError> {
  if (error instanceof HTTPError) {
    const body = (await error.response.json().catch(() => undefined)) as
      | { error?: { code: string; message: string; details?: { path: string; message: string }[] } }
      | undefined;
    if (body?.error)
      return new PortalError(body.error.code, body.error.message, error.response.status, body.error.details);
    return new PortalError('HTTP', `The server answered ${error.response.status}.`, error.response.status);
  }
  return new PortalError('NETWORK', 'The portal could not reach the server. Check your connection.', 0);
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw await toPortalError(error);
  }
}

type Query = Record<string, string | number | undefined>;
const clean = (query: Query = {}) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number
  >;

export const api = {
  get: <T>(path: string, query?: Query) =>
    call(() => http.get(path, { searchParams: clean(query) }).json<T>()),
  post: <T>(path: string, body?: unknown) =>
    call(() => http.post(path, body === undefined ? {} : { json: body }).json<T>()),
  patch: <T>(path: string, body: unknown) => call(() => http.patch(path, { json: body }).json<T>()),
  delete: <T>(path: string) => call(() => http.delete(path).json<T>()),
};

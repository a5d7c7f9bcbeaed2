import type { PortalPaths } from '../server/routes/portal/paths.ts';

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

type Query = Record<string, string | number | undefined>;

/** A non-2xx answer, before it is read into a PortalError. */
class HttpError extends Error {
  constructor(readonly response: Response) {
    super(`HTTP ${response.status}`);
  }
}

/** No call waits longer than this for the server. */
const TIMEOUT_MS = 20_000;

/**
 * One call to `/v1/portal/<path>` with fetch: same-origin cookies, the CSRF token on every write,
 * a JSON body when there is one, no retry. Resolves to the parsed JSON answer ('' when the answer
 * is empty, e.g. 204).
 */
async function request<T>(method: string, path: string, init: { query?: Query; json?: unknown } = {}) {
  const url = new URL(`/v1/portal/${path}`, window.location.origin);
  for (const [name, value] of Object.entries(init.query ?? {}))
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  const headers = new Headers({ Accept: 'application/json' });
  if (method !== 'GET') headers.set('X-CSRF-Token', csrfToken);
  if (init.json !== undefined) headers.set('Content-Type', 'application/json');
  const response = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new HttpError(response);
  const text = await response.text();
  return (text === '' ? '' : JSON.parse(text)) as T;
}

async function toPortalError(error: unknown): Promise<PortalError> {
  if (error instanceof HttpError) {
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

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** `leads/{id}` as the addresses it stands for: `leads/${string}`. */
type Concrete<P extends string> = P extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${Concrete<Tail>}`
  : P;

/** The paths a method has, written as a call writes them (an id in place of `{id}`). */
type PathOf<M extends Method> = {
  [K in keyof PortalPaths]: K extends `${M} ${infer P}` ? Concrete<P> : never;
}[keyof PortalPaths];

/**
 * The answer the route declares (server/routes/portal/paths.ts, generated from the routes): a
 * fixed path first (`leads/held`), else the route whose `{id}` the path fills (`leads/${string}`).
 */
type AnswerOf<M extends Method, S extends string> = `${M} ${S}` extends keyof PortalPaths
  ? PortalPaths[`${M} ${S}`]
  : {
      [K in keyof PortalPaths]: K extends `${M} ${infer P}`
        ? S extends Concrete<P>
          ? PortalPaths[K]
          : never
        : never;
    }[keyof PortalPaths];

/**
 * The portal API, one function per method. A path the routes do not declare for that method fails
 * to compile, and each call's answer has the type its route declares: no call names its own type.
 */
export const api = {
  get: <S extends PathOf<'GET'>>(path: S, query?: Query) =>
    call(() => request<AnswerOf<'GET', S>>('GET', path, query ? { query } : {})),
  post: <S extends PathOf<'POST'>>(path: S, body?: unknown) =>
    call(() => request<AnswerOf<'POST', S>>('POST', path, body === undefined ? {} : { json: body })),
  patch: <S extends PathOf<'PATCH'>>(path: S, body: unknown) =>
    call(() => request<AnswerOf<'PATCH', S>>('PATCH', path, { json: body })),
  delete: <S extends PathOf<'DELETE'>>(path: S) => call(() => request<AnswerOf<'DELETE', S>>('DELETE', path)),
};

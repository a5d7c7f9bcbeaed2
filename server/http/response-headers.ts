import type { Context } from 'hono';

/**
 * Writes headers on the answer a route has already made. A `Response` whose headers are
 * immutable (`Response.redirect`, a `fetch` answer passed through) is first copied into one that
 * is not, so it keeps its status, body and headers and still gets the caller's.
 */
export function writeHeaders(c: Context, write: (headers: Headers) => void): void {
  try {
    write(c.res.headers);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    const res = c.res;
    c.res = new Response(res.body, {
      status: res.status,
      statusText: res.statusText,
      headers: new Headers(res.headers),
    });
    write(c.res.headers);
  }
}

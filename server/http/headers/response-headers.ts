import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Writes headers on the answer a route has already made. A `Response` whose headers are
 * immutable (`Response.redirect`, a `fetch` answer passed through) is first copied into one that
 * is not, so it keeps its status, body and headers and still gets the caller's.
 */
function writeHeaders(c: Context, write: (headers: Headers) => void): void {
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

/**
 * Adds the headers every answer carries (request id, security, CORS, rate limits) to the answer
 * the route made. Where the answer has one of them already, the answer's own wins (a page with
 * its own CSP keeps it).
 *
 * Under the node server they are set on the outgoing message itself, and the adapter's
 * `writeHead` then merges the answer's own headers over them: no Fetch `Headers` list is built,
 * filled and read back for them, which the status profile showed at 8–9 % of a call. In-process
 * (`app.request`, the tests) they go on the answer's header list where it lacks them: the same
 * headers either way (`response-headers.test.ts` compares the two on one app).
 */
export function addHeaders(c: Context, headers: Record<string, string>): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && !outgoing.headersSent) {
    for (const name in headers) outgoing.setHeader(name, headers[name]!);
    return;
  }
  writeHeaders(c, (list) => {
    for (const name in headers) if (!list.has(name)) list.set(name, headers[name]!);
  });
}

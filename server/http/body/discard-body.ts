import type { Context } from 'hono';

/** Bodies up to this size are read and dropped so the keep-alive connection stays usable. */
export const DISCARD_CAP_BYTES = 8 * 1024 * 1024;
/** A client that sends slower than this gets its answer with `Connection: close` instead. */
const DISCARD_TIMEOUT_MS = 10_000;

/**
 * Called when the app answers before reading a request's whole body (413). If the answer went out
 * while the client was still writing, the Node adapter would drain for at most 500 ms and then close
 * the socket under the client, which sees a reset (EPIPE, ECONNRESET) instead of our answer and loses
 * the next request on that keep-alive connection. So the rest of the body is read and dropped first;
 * past `DISCARD_CAP_BYTES` or `DISCARD_TIMEOUT_MS` the answer says `Connection: close` instead.
 */
export async function discardUnreadBody(c: Context): Promise<void> {
  const body = c.req.raw.body;
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  if (!body || body.locked || (Number.isFinite(declared) && declared > DISCARD_CAP_BYTES)) {
    c.header('Connection', 'close');
    return;
  }
  const reader = body.getReader();
  const timer = setTimeout(() => reader.cancel().catch(() => {}), DISCARD_TIMEOUT_MS);
  let seen = 0;
  let drained = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        drained = true;
        break;
      }
      seen += value.byteLength;
      if (seen > DISCARD_CAP_BYTES) break;
    }
  } catch {
    // the client went away or the timer cancelled the read
  } finally {
    clearTimeout(timer);
  }
  if (!drained) {
    await reader.cancel().catch(() => {});
    c.header('Connection', 'close');
  }
}

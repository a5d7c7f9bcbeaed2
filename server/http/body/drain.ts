import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * How long a connection that is idle when draining starts may still bring a request. Clients
 * that keep connections alive send their next request at once; this spares them a reset.
 */
const IDLE_GRACE_MS = 1_000;
const SWEEP_MS = 100;

/**
 * The notice period before a drain: resolves `ms` after the call, and only after the event loop
 * has polled its sockets once more past that point, so every connection the kernel queued in the
 * meantime is accepted (closing a listener resets what it had not accepted yet). On a busy
 * machine a late timer would otherwise run before the poll that accepts them.
 */
export function noticePeriod(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(() => setImmediate(resolve), ms));
}

/**
 * Stops `servers` accepting connections and resolves once every open connection has ended:
 * requests in flight finish, and from now on every answer says `Connection: close` (the caller's
 * fetch wrapper, see `closeAfterAnswer`). Connections still idle after `IDLE_GRACE_MS` are closed;
 * after `timeoutMs` every remaining connection is cut.
 *
 * `http.Server#close` would also destroy idle connections at once (Node ≥ 19), and "idle"
 * includes a connection just accepted whose request bytes are not read yet: that request would
 * be reset instead of answered. So the listener is closed as a plain `net.Server`.
 */
export async function drainServers(servers: Server[], timeoutMs: number): Promise<void> {
  const closed = servers.map(
    (server) => new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve())),
  );
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    for (const server of servers) server.closeIdleConnections();
  };
  const grace = setTimeout(
    () => {
      sweep();
      sweeper = setInterval(sweep, SWEEP_MS);
    },
    Math.min(IDLE_GRACE_MS, timeoutMs),
  );
  const force = setTimeout(() => {
    for (const server of servers) server.closeAllConnections();
  }, timeoutMs);
  try {
    await Promise.all(closed);
  } finally {
    clearTimeout(grace);
    clearInterval(sweeper);
    clearTimeout(force);
  }
}

/**
 * While `draining()`, each answer closes its connection, so a client opens its next one (refused
 * here, so it goes to another instance). Checked when the answer is ready, so a request that
 * began before draining also ends its connection.
 */
export function closeAfterAnswer<A extends unknown[]>(
  fetch: (req: Request, ...rest: A) => Response | Promise<Response>,
  draining: () => boolean,
): (req: Request, ...rest: A) => Response | Promise<Response> {
  const mark = (res: Response) => (draining() ? withConnectionClose(res) : res);
  return (req, ...rest) => {
    const res = fetch(req, ...rest);
    return res instanceof Response ? mark(res) : res.then(mark);
  };
}

function withConnectionClose(res: Response): Response {
  try {
    res.headers.set('Connection', 'close');
    return res;
  } catch {
    // Immutable headers (a fetched response): copy them.
    const headers = new Headers(res.headers);
    headers.set('Connection', 'close');
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

import { randomUUID } from 'node:crypto';

const LIMIT = 128;
const SAFE = /^[\w\-=]+$/;

/**
 * `X-Request-Id`: the caller's own id when it is short and plain (a proxy's trace id), else a new
 * UUID. The request frame (`request-frame.ts`) puts it on the answer after the route has made it,
 * so a route that returns its own `Response` (MCP, streams) carries it too, and the answer is
 * never copied to add it.
 */
export function requestIdOf(given: string | undefined): string {
  return given && given.length <= LIMIT && SAFE.test(given) ? given : randomUUID();
}

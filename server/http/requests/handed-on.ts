import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { Principal } from '../../domain/credentials/principal.ts';
import type { RateDecision } from '../rate-limit/rate-limiter.ts';

const HANDED_ON = Symbol('svc.handedOn');

/**
 * What a lane (`node-front.ts`) did with a request before it gave the request to Hono after all:
 * the chain takes these up instead of doing them again, so a request is verified once and counted
 * once whichever way it is answered.
 */
export interface HandedOn {
  /** The bearer's verification, and the lookup caches' generation it was read at (`auth.ts`). */
  credential?: { result: Principal | Error; generation: number };
  /** The request's rate-limit count, taken, and the clock's reading right after it (`rate-limit.ts`). */
  counted?: { decision: RateDecision; now: number };
}

type Marked = IncomingMessage & { [HANDED_ON]?: HandedOn };

export function handOn(incoming: IncomingMessage, state: HandedOn): void {
  (incoming as Marked)[HANDED_ON] = state;
}

/** What was handed on with this request, if it came through a lane first (only on a socket). */
export function handedOn(c: Context): HandedOn | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming && (incoming as Marked)[HANDED_ON];
}

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * A lane: answers some requests on the node socket itself, before Hono builds a request, a
 * context and a chain of middleware promises for them. It either takes the request and answers
 * it with the same status, headers, body, count, log line and metrics the chain would, or gives it
 * to `next` (Hono) unanswered, at once or after its first steps, handing on what it did
 * (`handed-on.ts`). `closing` tells the answer to close its connection (the drain).
 */
export type NodeLane = (
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  next: () => void,
  closing: () => boolean,
) => void;

/**
 * `listener` (Hono's, from the node adapter) behind the lane `lane()` returns, when there is one
 * (the API app, once it is built).
 */
export function withLane(
  listener: RequestListener,
  lane: () => NodeLane | undefined,
  closing: () => boolean,
): RequestListener {
  return (incoming, outgoing) => {
    const current = lane();
    if (!current) return void listener(incoming, outgoing);
    current(incoming, outgoing, () => void listener(incoming, outgoing), closing);
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../main/app.ts';
import { coreDeps } from '../../test-support/app.ts';
import { DISCARD_CAP_BYTES } from './discard-body.ts';

type Reply = { status: number; body: string; connection: string | undefined; reused: boolean };

/** One POST over a keep-alive agent; resolves with the answer or rejects with the socket error. */
function post(
  url: URL,
  agent: http.Agent,
  body: Buffer,
  chunked = false,
  sockets?: Set<unknown>,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = body.length;
    const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          connection: res.headers.connection,
          reused: req.reusedSocket,
        }),
      );
    });
    req.on('socket', (socket) => sockets?.add(socket));
    req.on('error', reject);
    req.end(body);
  });
}

describe('a body over the limit gets its 413 over a real socket', () => {
  let server: ReturnType<typeof serve>;
  let url: URL;
  beforeAll(async () => {
    const app = createApp(coreDeps({}, { RATE_LIMIT_SCALE: '1000' }));
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/api/calc/estimate`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('200 uploads of 200 KB on 4 keep-alive sockets: every one answered 413, none reset', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const big = Buffer.alloc(200 * 1024, 'a');
    const sockets = new Set<unknown>();
    const settled = await Promise.allSettled(
      Array.from({ length: 200 }, () => post(url, agent, big, false, sockets)),
    );
    agent.destroy();
    const failures = settled.filter((s) => s.status === 'rejected');
    expect(failures).toEqual([]);
    const replies = settled.map((s) => (s as PromiseFulfilledResult<Reply>).value);
    expect(replies.every((r) => r.status === 413)).toBe(true);
    expect(JSON.parse(replies[0]!.body).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    // The connections stayed open: 200 requests went over the agent's 4 sockets.
    expect(sockets.size).toBeLessThanOrEqual(4);
  });

  it('the next request on the same connection still works', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await post(url, agent, Buffer.alloc(300 * 1024, 'a'));
    const second = await post(url, agent, Buffer.from('{'));
    agent.destroy();
    expect(first.status).toBe(413);
    expect(second.reused).toBe(true);
    expect(second.status).toBe(404);
  });

  it('a chunked body over the limit gets 413 and a clean close', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const reply = await post(url, agent, Buffer.alloc(200 * 1024, 'a'), true);
    agent.destroy();
    expect(reply.status).toBe(413);
  });

  it('a declared length past the discard cap is answered with Connection: close', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const reply = await post(url, agent, Buffer.alloc(DISCARD_CAP_BYTES + 1024, 'a')).catch(
      (error: NodeJS.ErrnoException) => error.code,
    );
    agent.destroy();
    // Either the 413 with close arrives, or the socket closes while 8 MB are still in flight.
    if (typeof reply === 'string') expect(['ECONNRESET', 'EPIPE']).toContain(reply);
    else expect(reply).toMatchObject({ status: 413, connection: 'close' });
  });
});

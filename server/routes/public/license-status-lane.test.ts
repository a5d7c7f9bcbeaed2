import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/engine/database.ts';
import { revokeLicense as revokeLicenseRow } from '../../db/repos/licenses-repo.ts';
import { activateLicense } from '../../domain/activation/activate.ts';
import { revokeLicense } from '../../domain/licensing/licenses.ts';
import { createPostgresTestDatabase } from '../../test-support/db.ts';
import { serveBehindLane } from '../../test-support/lane-server.ts';
import { needs } from '../../test-support/needs.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request over a socket, headers as sent (a name may repeat). */
function call(server: Server, path: string, headers: [string, string][] = []): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    // Headers as a flat list (so a name may repeat); node then adds no Host of its own.
    const raw = [['host', `127.0.0.1:${port}`], ...headers].flat();
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: raw }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          if (name in out) throw new Error(`header ${name} twice`);
          out[name] = res.rawHeaders[i + 1]!;
        }
        resolve({ status: res.statusCode!, headers: out, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A request written on the socket as it is (any Host, any version); the answer's status and body. */
function rawCall(server: Server, head: string, halfClose = true): Promise<{ status: number; text: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      halfClose ? socket.end(`${head}\r\n\r\n`) : socket.write(`${head}\r\n\r\n`),
    );
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.\d (\d{3})/.exec(text)?.[1] ?? 0), text }));
  });
}

/** What differs between two answers to the same request by the second or by the count. */
function comparable(a: Answer): Answer {
  const headers = { ...a.headers };
  for (const name of ['date', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'keep-alive'])
    delete headers[name];
  if (!/^trace-/.test(headers['x-request-id'] ?? '')) delete headers['x-request-id'];
  return { ...a, headers };
}

interface Served {
  /** The API behind the status lane, as `servers.ts` runs it. */
  lane: Server;
  /** The same app without it. */
  plain: Server;
  /** Requests the lane gave to Hono. */
  handedOver(): number;
  setClosing(closing: boolean): void;
  lines: Record<string, unknown>[];
  t: TestContext;
  close(): Promise<void>;
}

async function serve(
  env: Record<string, string>,
  shared?: { redis: Redis; database: Database },
): Promise<Served> {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const t = await createTestContext(env, shared?.database, {
    logger,
    ...(shared ? { redis: shared.redis } : {}),
  });
  const behind = await serveBehindLane(t.app);
  const plain = createServer(getRequestListener(t.app.fetch));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', () => resolve()));
  const lane = behind.server;
  return {
    lane,
    plain,
    handedOver: behind.handedOver,
    setClosing: behind.setClosing,
    lines,
    t,
    close: async () => {
      plain.closeAllConnections();
      await Promise.all([behind.close(), new Promise((resolve) => plain.close(resolve))]);
      await t.close();
    },
  };
}

async function accessToken(
  t: TestContext,
  license: Partial<Parameters<TestContext['seed']['firm']>[0]> = {},
) {
  const firm = await t.seed.firm(license);
  // Activated directly: the activation group's limit (one a minute at this scale) is not this file's subject.
  const set = await activateLicense(t.services.licensing, {
    licenseKey: firm.licenseKey,
    siteDomain: 'smithlaw.com',
  });
  return { ...firm, token: set.accessJwt };
}

const bearer = (token: string): [string, string] => ['authorization', `Bearer ${token}`];

describe('license status on the socket (the status lane)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ CORS_ORIGINS: 'https://firm.example' });
  });
  afterAll(() => s?.close());

  it('answers as the chain does, header by header, and takes the request itself', async () => {
    const { token } = await accessToken(s.t);
    const cases: [string, [string, string][]][] = [
      ['/v1/api/licenses/status', [bearer(token)]],
      ['/api/licenses/status', [bearer(token)]],
      ['/v1/api/licenses/status', [bearer(token), ['origin', 'https://firm.example']]],
      ['/v1/api/licenses/status', [bearer(token), ['origin', 'https://stranger.example']]],
      ['/v1/api/licenses/status', [bearer(token), ['x-request-id', 'trace-7f3a']]],
      ['/v1/api/licenses/status', [bearer(token), ['x-request-id', 'has spaces, so replaced']]],
      ['/v1/api/licenses/status', [['Authorization', `bearer   ${token}  `]]],
    ];
    for (const [path, headers] of cases) {
      await call(s.lane, path, headers); // warm: the token verified once
      const before = s.handedOver();
      const viaLane = await call(s.lane, path, headers);
      expect(s.handedOver(), `${path} ${JSON.stringify(headers.slice(1))}`).toBe(before);
      const viaChain = await call(s.plain, path, headers);
      expect(comparable(viaLane), viaLane.body).toEqual(comparable(viaChain));
      expect(viaLane.status, viaLane.body).toBe(200);
      expect(JSON.parse(viaLane.body)).toMatchObject({
        status: 'active',
        publishableKey: expect.any(String),
      });
    }
    const answer = await call(s.lane, '/v1/api/licenses/status', [
      bearer(token),
      ['origin', 'https://firm.example'],
    ]);
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json',
      'access-control-allow-origin': 'https://firm.example',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-ratelimit-resource': 'default',
      'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('gives Hono a request whose Host the node adapter refuses (400), as the chain answers it', async () => {
    const { token } = await accessToken(s.t);
    await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
    const refused = [
      'Host: evil.example/x',
      'Host: a b',
      'Host: user@evil.example',
      'Host: 1.2.3:80',
      'Host: h:99999',
      '',
    ];
    for (const host of refused) {
      const head = [
        `GET /v1/api/licenses/status HTTP/1.${host ? 1 : 0}`,
        ...(host ? [host] : []),
        `Authorization: Bearer ${token}`,
        'Connection: close',
      ].join('\r\n');
      const viaChain = await rawCall(s.plain, head);
      const before = s.handedOver();
      const viaLane = await rawCall(s.lane, head);
      expect(viaLane.status, host).toBe(viaChain.status);
      expect(viaChain.status, host).toBe(400);
      expect(s.handedOver(), host).toBe(before + 1);
    }
    // A Host the adapter parses and keeps (any case, a port past its fast pattern): the lane's.
    for (const host of ['Host: API.Example:60001', 'Host: api.example:80', 'Host: 127.0.0.1:65535']) {
      const head = [
        'GET /v1/api/licenses/status HTTP/1.1',
        host,
        `Authorization: Bearer ${token}`,
        'Connection: close',
      ].join('\r\n');
      expect((await rawCall(s.plain, head)).status, host).toBe(200);
      const before = s.handedOver();
      expect((await rawCall(s.lane, head)).status, host).toBe(200);
      expect(s.handedOver(), host).toBe(before);
    }
  });

  it('answers pipelined requests in order, the lane’s and Hono’s on one connection', async () => {
    const { token } = await accessToken(s.t);
    await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
    const { port } = s.lane.address() as AddressInfo;
    const one = (path: string, id: string, last = false) =>
      [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${token}`,
        `X-Request-Id: ${id}`,
        ...(last ? ['Connection: close'] : []),
      ].join('\r\n');
    const before = s.handedOver();
    const { text } = await rawCall(
      s.lane,
      [
        one('/v1/api/licenses/status?chain=1', 'first'),
        one('/v1/api/licenses/status', 'second'),
        one('/v1/api/licenses/nothing', 'third'),
        one('/api/licenses/status', 'fourth', true),
      ].join('\r\n\r\n'),
      false,
    );
    expect(s.handedOver()).toBe(before + 2);
    expect([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1])).toEqual(['200', '200', '404', '200']);
    expect([...text.matchAll(/^x-request-id: (\S+)/gim)].map((m) => m[1])).toEqual([
      'first',
      'second',
      'third',
      'fourth',
    ]);
  });

  it('counts each request once, whichever way it is answered', async () => {
    const { token } = await accessToken(s.t);
    const remaining: number[] = [];
    for (const server of [s.lane, s.plain, s.lane, s.lane, s.plain])
      remaining.push(
        Number(
          (await call(server, '/v1/api/licenses/status', [bearer(token)])).headers['x-ratelimit-remaining'],
        ),
      );
    expect(remaining).toEqual(remaining.map((_, i) => remaining[0]! - i));
  });

  it('gives Hono what is not a plain status call, and the answers stay the chain’s', async () => {
    const { token } = await accessToken(s.t);
    const other = await accessToken(s.t);
    await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
    const cases: [string, [string, string][]][] = [
      ['/v1/api/licenses/status?verbose=1', [bearer(token)]],
      ['/v1/api/licenses/status/', [bearer(token)]],
      ['/v1/api/licenses/status', []],
      ['/v1/api/licenses/status', [['authorization', 'Basic dXNlcjpwYXNz']]],
      ['/v1/api/licenses/status', [bearer(token), bearer(other.token)]],
      ['/v1/api/licenses/status', [bearer(token), ['content-length', '0']]],
      ['/v1/api/licenses/status', [bearer('svc_pat_not_a_token')]],
    ];
    for (const [path, headers] of cases) {
      const before = s.handedOver();
      const viaLane = await call(s.lane, path, headers);
      expect(s.handedOver(), `${path} ${JSON.stringify(headers)}`).toBe(before + 1);
      expect(comparable(viaLane)).toEqual(comparable(await call(s.plain, path, headers)));
    }
  });

  it('hands over a token that fails, verified once, and the error is the documented one', async () => {
    const { token } = await accessToken(s.t);
    const [head, payload] = token.split('.');
    const forged = `${head}.${payload}.${randomBytes(64).toString('base64url')}`;
    const verify = vi.spyOn(s.t.services.licensing.tokens, 'verify');
    try {
      const before = s.handedOver();
      const viaLane = await call(s.lane, '/v1/api/licenses/status', [bearer(forged)]);
      expect(s.handedOver()).toBe(before + 1);
      expect(verify).toHaveBeenCalledTimes(1);
      expect(viaLane.status).toBe(401);
      expect(JSON.parse(viaLane.body).error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      expect(comparable(viaLane)).toEqual(
        comparable(await call(s.plain, '/v1/api/licenses/status', [bearer(forged)])),
      );
    } finally {
      verify.mockRestore();
    }
  });

  it('writes the same access line and metrics as the chain', async () => {
    const { token } = await accessToken(s.t);
    const metric = async () =>
      Number(
        /svc_http_requests_total\{group="default",method="GET",status="2xx"\} (\d+)/.exec(
          await s.t.services.metrics.text(),
        )?.[1] ?? 0,
      );
    const before = await metric();
    const lines = (server: Server) => {
      s.lines.length = 0;
      return call(server, '/api/licenses/status', [bearer(token), ['x-request-id', 'trace-line']]).then(() =>
        s.lines
          .filter((l) => l.msg === 'request')
          .map(({ time, durationMs, pid, hostname, ...rest }) => rest),
      );
    };
    const viaLane = await lines(s.lane);
    expect(viaLane).toEqual(await lines(s.plain));
    expect(viaLane).toEqual([
      expect.objectContaining({
        requestId: 'trace-line',
        method: 'GET',
        path: '/v1/api/licenses/status',
        status: 200,
      }),
    ]);
    expect(await metric()).toBe(before + 2);
  });

  it('closes the connection while the server drains', async () => {
    const { token } = await accessToken(s.t);
    s.setClosing(true);
    try {
      const answer = await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
      expect(answer.status).toBe(200);
      expect(answer.headers.connection).toBe('close');
    } finally {
      s.setClosing(false);
    }
  });

  it('answers a license revoked since its token was cached with 401, on the next call', async () => {
    const { token, license } = await accessToken(s.t);
    expect((await call(s.lane, '/v1/api/licenses/status', [bearer(token)])).status).toBe(200);
    await revokeLicense(s.t.services.licensing, license.id);
    const answer = await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
    expect(answer.status).toBe(401);
  });
});

describe('the status lane at its rate limit', () => {
  let s: Served;
  beforeAll(async () => {
    // Six calls a minute per license.
    s = await serve({ RATE_LIMIT_SCALE: '0.05' });
  });
  afterAll(() => s?.close());

  it('hands over a refused count: 429 with Retry-After, as the chain answers it', async () => {
    const { token } = await accessToken(s.t);
    const answers: Answer[] = [];
    for (let i = 0; i < 7; i++) answers.push(await call(s.lane, '/v1/api/licenses/status', [bearer(token)]));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const refused = answers[6]!;
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.headers).toMatchObject({
      'retry-after': expect.stringMatching(/^\d+$/),
      'x-ratelimit-remaining': '0',
    });
    expect(comparable(refused)).toEqual(
      comparable(await call(s.plain, '/v1/api/licenses/status', [bearer(token)])),
    );
  });
});

needs('postgres', 'redis').describe(
  'the status lane with caches shared through Redis (PostgreSQL, Redis)',
  () => {
    let s: Served;
    let redis: Redis;
    const prefix = `svc-test-lane-${randomBytes(4).toString('hex')}:`;
    beforeAll(async () => {
      const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      redis = new Redis(process.env.REDIS_URL!);
      s = await serve(
        { DATABASE_URL: pg.url, REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: prefix },
        { redis, database: pg.database },
      );
      dropDatabase = pg.drop;
    });
    let dropDatabase: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await s?.close();
      await dropDatabase?.();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });

    it('sees a revocation written by another instance on the next call, though the lane had the token cached', async () => {
      const { token, license } = await accessToken(s.t);
      expect((await call(s.lane, '/v1/api/licenses/status', [bearer(token)])).status).toBe(200);
      const before = s.handedOver();
      expect((await call(s.lane, '/v1/api/licenses/status', [bearer(token)])).status).toBe(200);
      expect(s.handedOver()).toBe(before);
      // Another instance's revocation: its row, and a new epoch in Redis. This instance's caches
      // still hold the license until its next count reads the epoch.
      await revokeLicenseRow(s.t.database.db, license.id, s.t.clock.now());
      await redis.set(`${prefix}cache:epoch`, randomBytes(8).toString('hex'));
      const answer = await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
      expect(s.handedOver(), answer.body).toBe(before + 1);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    });

    it('counts once a request it counted and then gave to Hono (the epoch read dropped the caches)', async () => {
      const { token } = await accessToken(s.t);
      const remaining = (a: Answer) => Number(a.headers['x-ratelimit-remaining']);
      const warm = await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
      expect(warm.status).toBe(200);
      await redis.set(`${prefix}cache:epoch`, randomBytes(8).toString('hex'));
      const before = s.handedOver();
      const handed = await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
      expect(s.handedOver()).toBe(before + 1);
      expect(handed.status, handed.body).toBe(200);
      expect(remaining(handed)).toBe(remaining(warm) - 1);
      const next = await call(s.lane, '/v1/api/licenses/status', [bearer(token)]);
      expect(s.handedOver()).toBe(before + 1);
      expect(remaining(next)).toBe(remaining(handed) - 1);
    });
  },
);

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/** One raw HTTP/1.1 request on its own socket, exactly as written; answers the status line. */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) {
        resolve(text.slice(0, text.indexOf('\r\n')));
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

/**
 * A POST with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3), so it
 * needs no Content-Type: curl -X POST and many HTTP clients send exactly that.
 */
describe('a POST without a body on the wire', () => {
  let ctx: TestContext;
  let server: ReturnType<typeof serve>;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  it.each([
    ['neither header', ''],
    ['Content-Length: 0', 'Content-Length: 0\r\n'],
  ])('with %s is served, not 415', async (_what, framing) => {
    const origin = ctx.services.config.publicPortalUrl;
    const status = await rawRequest(
      port,
      `POST /v1/portal/auth/passkey/options HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\n${framing}Connection: close\r\n\r\n`,
    );
    expect(status).toBe('HTTP/1.1 200 OK');
  });

  it('a chunked body without a Content-Type is still 415', async () => {
    const status = await rawRequest(
      port,
      'POST /v1/portal/auth/passkey/options HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    expect(status).toMatch(/^HTTP\/1.1 415/);
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledArgs } from '../test-support/compiled-server.ts';
import { stackEnv, startStack } from '../test-support/stack.ts';

describe('startServers', () => {
  it('serves the three listeners, refuses a second process on the same data dir, and drains on close', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-start-'));
    const running = await startStack({ DATA_DIR: dataDir });
    try {
      expect(running.demo.licenseKey).toMatch(/^SVC-/);
      expect(running.demo.publishableKey).toMatch(/^svc_pk_/);
      // Pages get the publishable key; the secret key is refused there.
      const page = await (await fetch(`${running.examplesUrl}/`)).text();
      expect(page).toContain(`data-key="${running.demo.publishableKey}"`);
      expect(page).not.toContain(running.demo.licenseKey);
      const embed = (licenseKey: string) =>
        fetch(`${running.apiUrl}/v1/api/license/activate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: running.examplesUrl },
          body: JSON.stringify({ licenseKey }),
        });
      expect((await embed(running.demo.publishableKey)).status).toBe(200);
      expect((await (await embed(running.demo.licenseKey)).json()).error.code).toBe('WRONG_KEY_KIND');
      const notFound = await fetch(`${running.apiUrl}/nowhere`);
      expect(notFound.status).toBe(404);
      expect((await notFound.json()).error.code).toBe('NOT_FOUND');
      expect(notFound.headers.get('x-ratelimit-limit')).toBe('120');
      expect((await fetch(`${running.apiUrl}/readyz`)).status).toBe(200);
      await expect(startStack({ DATA_DIR: dataDir })).rejects.toThrow(/in use/);
    } finally {
      await running.close();
    }
    await expect(fetch(`${running.apiUrl}/healthz`)).rejects.toThrow();
    // The demo credentials are the same on the next start, and the lock was released.
    const again = await startStack({ DATA_DIR: dataDir });
    expect(again.demo.licenseKey).toBe(running.demo.licenseKey);
    expect(again.demo.publishableKey).toBe(running.demo.publishableKey);
    await again.close();
  }, 90_000);
});

describe('SEED_DEMO=false', () => {
  it('leaves an empty database empty: the derived demo credentials open nothing', async () => {
    const running = await startStack({ SEED_DEMO: 'false' });
    try {
      expect(running.demo.accountId).toBeNull();
      const res = await fetch(`${running.apiUrl}/v1/api/leads`, {
        headers: { authorization: `Bearer ${running.demo.apiKey}` },
      });
      expect(res.status).toBe(401);
    } finally {
      await running.close();
    }
  });
});

describe('start-up with the wrong secret key', () => {
  it('stops with a message naming SECRET_KEY, not a raw AES-GCM error, and leaves the data dir usable', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-key-'));
    const first = await startStack({ DATA_DIR: dataDir, SECRET_KEY: 'a'.repeat(64) });
    await first.close();
    await expect(startStack({ DATA_DIR: dataDir, SECRET_KEY: 'b'.repeat(64) })).rejects.toThrow(
      /SECRET_KEY is not the one this database was set up with/,
    );
    // The failed start released the lock: the right key still opens it.
    const again = await startStack({ DATA_DIR: dataDir, SECRET_KEY: 'a'.repeat(64) });
    expect(again.demo.licenseKey).toBe(first.demo.licenseKey);
    await again.close();
  });
});

describe('graceful shutdown', () => {
  it('finishes a request that is in flight when close() starts', async () => {
    const running = await startStack();
    const url = new URL(`${running.apiUrl}/v1/api/licenses/activate`);
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    req.write('{"licenseKey":"SVC-nope",');
    await new Promise((resolve) => req.once('socket', resolve));
    await expect.poll(() => req.socket?.readyState).toBe('open');
    const closing = running.close();
    req.end('"siteDomain":"smithlaw.com"}');
    const { status, body } = await response;
    expect(status).toBe(401);
    expect(JSON.parse(body).error.code).toBe('INVALID_LICENSE');
    await closing;
  });
});

describe('the server process', () => {
  it('finishes in-flight work and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, compiledArgs('server/main/index.ts'), {
      env: { ...process.env, ...stackEnv(), DATABASE_URL: '', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    // Generous: on a loaded 2-core CI machine a cold start can take tens of seconds.
    await expect.poll(() => output, { timeout: 90_000, interval: 100 }).toContain('Demo credentials');
    const apiUrl = /API\s+(http:\/\/\S+)\/v1/.exec(output)![1]!;
    expect((await fetch(`${apiUrl}/readyz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('shutdown complete');
  }, 150_000);
});

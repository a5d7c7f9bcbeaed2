import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/**
 * A deployment with its own host names, on loopback: `names` (such as `api.svc-firm.test` and
 * `portal.svc-firm.test`) resolve to 127.0.0.1 for Chromium (`--host-resolver-rules`) and for the
 * Node side (`fetch`), and a TLS-terminating proxy answers them with a certificate made at test
 * time (openssl), passing every request to the API listener with its `Host` as sent, as a load
 * balancer does. HTTPS makes both origins secure contexts, so the portal's `__Host-` Secure session
 * cookie is set as it is in production; Chromium trusts that one certificate by its key's hash.
 */
export interface HostNames {
  /** The proxy's port: the one in every public URL (`https://<name>:<port>`). */
  port: number;
  url(name: string): string;
  chromiumArgs: string[];
  /** fetch for Node clients: these names go to the proxy over TLS trusting its certificate. */
  fetch: typeof fetch;
  close(): Promise<void>;
}

function certificateFor(names: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-hosts-'));
  try {
    // biome-ignore format: one openssl command, flags paired on lines
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all)
    (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  else callback(null, '127.0.0.1', 4);
};

/** A fetch that sends `names` to loopback over TLS (trusting `ca`) and anything else to the real fetch. */
function fetchResolving(names: string[], ca: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!names.includes(url.hostname)) return fetch(request);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = httpsRequest(
        url,
        { method: request.method, headers: Object.fromEntries(request.headers), ca, lookup: toLoopback },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const one of [value ?? []].flat()) headers.append(name, one);
          const empty = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD';
          resolve(
            new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status: res.statusCode ?? 502,
              headers,
            }),
          );
        },
      );
      request.signal.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.on('error', reject);
      req.end(body);
    });
  };
}

/** Starts the proxy for `names`, passing requests to the API listener on `upstreamPort`. */
export async function startHostNames(names: string[], upstreamPort: number): Promise<HostNames> {
  const { key, cert } = certificateFor(names);
  const server = createHttpsServer({ key, cert }, (req, res) => {
    const upstream = httpRequest(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
  return {
    port,
    url: (name) => `https://${name}:${port}`,
    chromiumArgs: [
      `--host-resolver-rules=${names.map((n) => `MAP ${n} 127.0.0.1`).join(', ')}`,
      `--ignore-certificate-errors-spki-list=${createHash('sha256').update(spki).digest('base64')}`,
    ],
    fetch: fetchResolving(names, cert),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAdminToken, serverInfoFile } from '../infra/admin-token.ts';
import type { Config } from '../infra/env.ts';
import { runningServers } from '../infra/running-servers.ts';

export interface AdminTransport {
  mode: 'server' | 'direct';
  /** What it talks to, in words: "the server at http://127.0.0.1:8787 (data directory /srv/svc)". */
  where: string;
  call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export const request = (method: string, token: string, body?: unknown): RequestInit => ({
  method,
  headers: {
    authorization: `Bearer ${token}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/**
 * The CLI works whether or not a server runs. A running server owns the embedded database (PGlite
 * admits one process), so the CLI then goes through its admin API; with no server it opens the
 * database itself and serves the very same admin routes in-process.
 */
export async function connectAdmin(
  config: Config,
  opts: {
    /** DATA_DIR was not given: look for a server started from this checkout. */ discover?: boolean;
  } = {},
): Promise<AdminTransport> {
  // DATA_DIR not given and nothing there: a server started from this checkout with its own
  // DATA_DIR (what `npm start` printed) is the one meant, not a fresh ./data.
  const found =
    opts.discover && !existsSync(join(config.DATA_DIR, 'admin-token'))
      ? await findStarted(config)
      : undefined;
  if (found) return remoteTransport(found.url, found.token, found.dataDir);
  const token = loadAdminToken(config.DATA_DIR, config.ADMIN_TOKEN);
  const remote = await reachServer(config, token);
  if (remote) return remoteTransport(remote, token, config.DATA_DIR);
  // The in-process stack (database, services, routes) is loaded only when no server answers.
  const { openDirect } = await import('./admin-direct.ts');
  return {
    ...(await openDirect(config, token)),
    where: `the data directory ${resolve(config.DATA_DIR)} (no server running)`,
  };
}

function remoteTransport(url: string, token: string, dataDir: string): AdminTransport {
  return {
    mode: 'server',
    where: `the server at ${url} (data directory ${resolve(dataDir)})`,
    call: async (method, path, body) => {
      const res = await fetch(`${url}${path}`, request(method, token, body));
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    close: async () => {},
  };
}

/** The one server started from this checkout that answers with its own data directory's token. */
async function findStarted(config: Config) {
  const answering = [];
  for (const server of runningServers()) {
    if (!config.ADMIN_TOKEN && !existsSync(join(server.dataDir, 'admin-token'))) continue;
    const token = loadAdminToken(server.dataDir, config.ADMIN_TOKEN);
    const url = await reachServer(
      { ...config, DATA_DIR: server.dataDir, PUBLIC_API_URL: server.apiUrl },
      token,
    );
    if (url) answering.push({ url, token, dataDir: server.dataDir });
  }
  if (answering.length > 1)
    throw new Error(
      `${answering.length} servers run from this checkout (data directories ${answering.map((s) => s.dataDir).join(', ')}): set DATA_DIR to the one you mean.`,
    );
  return answering[0];
}

export async function reachServer(config: Config, token: string): Promise<string | undefined> {
  const file = serverInfoFile(config.DATA_DIR);
  const candidates = [
    ...(existsSync(file) ? [(JSON.parse(readFileSync(file, 'utf8')) as { apiUrl: string }).apiUrl] : []),
    ...(config.PUBLIC_API_URL ? [config.PUBLIC_API_URL] : []),
  ];
  for (const url of candidates) {
    try {
      const res = await fetch(`${url}/admin/v1/health`, {
        ...request('GET', token),
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return url;
    } catch {
      // not running there
    }
  }
  return undefined;
}

import { existsSync, readFileSync } from 'node:fs';
import { loadAdminToken, serverInfoFile } from '../infra/admin-token.ts';
import type { Config } from '../infra/env.ts';

export interface AdminTransport {
  mode: 'server' | 'direct';
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
export async function connectAdmin(config: Config): Promise<AdminTransport> {
  const token = loadAdminToken(config.DATA_DIR, config.ADMIN_TOKEN);
  const remote = await reachServer(config, token);
  if (remote) {
    return {
      mode: 'server',
      call: async (method, path, body) => {
        const res = await fetch(`${remote}${path}`, request(method, token, body));
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
      close: async () => {},
    };
  }
  // The in-process stack (database, services, routes) is loaded only when no server answers.
  const { openDirect } = await import('./admin-direct.ts');
  return openDirect(config, token);
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

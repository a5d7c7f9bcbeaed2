import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from './repo-root.ts';

/**
 * Servers started from this checkout, one small file per process (in node_modules/.cache, which
 * git ignores): its data directory and API URL. `npm run svc` run from the same checkout without
 * the server's DATA_DIR finds the server here instead of opening a fresh ./data, and a command
 * that finds nothing can say where it looked. A file of a process that is gone is ignored.
 */
export interface RunningServer {
  pid: number;
  dataDir: string;
  apiUrl: string;
}

const registry = () => join(repoRoot(), 'node_modules', '.cache', 'svc-servers');

export function recordRunningServer(dataDir: string, apiUrl: string): () => void {
  const file = join(registry(), `${process.pid}.json`);
  try {
    mkdirSync(registry(), { recursive: true });
    writeFileSync(file, JSON.stringify({ pid: process.pid, dataDir: resolve(dataDir), apiUrl }));
  } catch {
    // A read-only checkout: the CLI then needs DATA_DIR, as it says.
  }
  return () => rmSync(file, { force: true });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function runningServers(): RunningServer[] {
  let names: string[];
  try {
    names = readdirSync(registry()).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const server = JSON.parse(readFileSync(join(registry(), name), 'utf8')) as RunningServer;
      return Number.isInteger(server.pid) && alive(server.pid) ? [server] : [];
    } catch {
      return [];
    }
  });
}

import fs, { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/**
 * The data directory holds the embedded database (lead names and e-mails in its WAL), the key
 * file and the admin token: it is the server's alone. It is created 0700; the process umask is set
 * to 077; what an older version left readable (or world-writable) is tightened on start-up; and
 * since PGlite's file layer chmods every file it creates to 0666 (Emscripten's default mode),
 * chmods of paths inside the directory are masked to the owner's bits.
 */
export function secureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    process.umask(0o077);
  } catch {
    // Worker threads may not change the umask; the mask below still applies.
  }
  maskChmodsUnder(resolve(dir));
  tighten(dir);
}

const privateRoots = new Set<string>();

function maskChmodsUnder(root: string): void {
  if (privateRoots.size === 0) {
    const original = fs.chmodSync;
    const isPrivate = (path: fs.PathLike) => {
      const full = resolve(String(path));
      for (const r of privateRoots) if (full === r || full.startsWith(r + sep)) return true;
      return false;
    };
    fs.chmodSync = (path: fs.PathLike, mode: fs.Mode) => {
      const masked = typeof mode === 'number' && isPrivate(path) ? mode & ~0o077 : mode;
      original(path, masked);
    };
  }
  privateRoots.add(root);
}

function tighten(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) tighten(join(path, name));
  } else if ((stat.mode & 0o077) !== 0) {
    chmodSync(path, stat.mode & 0o700);
  }
}

// What a build depends on, as one digest: every input's path, size and modification time (tests,
// dot files and node_modules left out). `npm start` (build-if-stale.mjs) rebuilds dist/ when it
// changes; the unit suite's global setup (server/test-support/compiled-server.ts) recompiles the
// server its test processes run.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** The digest of `files` and of everything under `dirs`, all relative to `root`; missing ones are skipped. */
export function fingerprint(root, dirs, files) {
  const hash = createHash('sha256');
  const paths = files.map((f) => join(root, f)).filter(existsSync);
  for (const dir of dirs) if (existsSync(join(root, dir))) paths.push(...walk(join(root, dir)));
  for (const path of paths.sort()) {
    const { size, mtimeMs } = statSync(path);
    hash.update(`${path}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

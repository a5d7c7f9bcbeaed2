import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The directory holding package.json, found from this module's location, so paths to committed
 * files (migrations, examples) and to dist/ resolve the same from sources and from the tsc build.
 */
export function repoRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above server/');
    dir = parent;
  }
  cached = dir;
  return dir;
}

#!/usr/bin/env node
// `npm run build:wordpress`: the installable plugin zip (dist/wordpress/svc.zip, one top-level
// folder `svc/`, as WordPress's upload form expects), made with the `zip` CLI (Debian's `zip`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'wordpress', 'svc.zip');
mkdirSync(dirname(out), { recursive: true });
rmSync(out, { force: true });
try {
  execFileSync('zip', ['-r', '-X', '-q', out, 'svc', '-x', '*.DS_Store'], {
    cwd: join(root, 'plugins', 'wordpress'),
    stdio: 'inherit',
  });
} catch (error) {
  const missing = error?.code === 'ENOENT';
  console.error(missing ? 'build:wordpress needs the zip command (apt-get install zip).' : String(error));
  process.exit(1);
}
console.log(`${out} (${statSync(out).size} bytes)`);

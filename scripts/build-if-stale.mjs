#!/usr/bin/env node
// `npm start` calls this before starting: it builds (server + embed) only when a source file,
// a build config or the lock file changed since the last build, so a second start answers within
// a second or two instead of rebuilding for 12–16 s. The fingerprint is every input's path, size
// and modification time, kept in dist/.build-fingerprint; a fresh clone has none and builds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const INPUT_DIRS = ['server', 'calculators', 'protocol', 'widget', 'loader', 'sdk', 'portal', 'examples'];
const INPUT_FILES = [
  // package.json: the build scripts, and the version the loader carries.
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
];
const STAMP = join(root, 'dist', '.build-fingerprint');

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  const files = INPUT_FILES.map((f) => join(root, f)).filter(existsSync);
  for (const dir of INPUT_DIRS) if (existsSync(join(root, dir))) files.push(...walk(join(root, dir)));
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const current = fingerprint();
const previous = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (current === previous && process.argv[2] !== '--force') process.exit(0);
console.log(previous ? 'sources changed: building…' : 'first start: building…');
execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
// The inputs as they were when the build started: a file saved during the build rebuilds next time.
writeFileSync(STAMP, `${current}\n`);

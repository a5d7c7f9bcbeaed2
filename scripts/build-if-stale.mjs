#!/usr/bin/env node
// `npm start` calls this before starting: it builds (server + embed) only when a source file,
// a build config or the lock file changed since the last build, so a second start answers within
// a second or two instead of rebuilding for 12–16 s. The fingerprint is every input's path, size
// and modification time, kept in dist/.build-fingerprint; a fresh clone has none and builds.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint } from './fingerprint.mjs';

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

const current = fingerprint(root, INPUT_DIRS, INPUT_FILES);
const previous = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (current === previous && process.argv[2] !== '--force') process.exit(0);
console.log(previous ? 'sources changed: building…' : 'first start: building…');
execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
// The inputs as they were when the build started: a file saved during the build rebuilds next time.
writeFileSync(STAMP, `${current}\n`);

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint } from '../../scripts/fingerprint.mjs';
import { repoRoot } from '../infra/repo-root.ts';

/**
 * Test processes (`startServerProcess`, `runCli`, the crash tests) run the server as `npm start`
 * does: JavaScript that `tsc -p tsconfig.build.json` emits, not TypeScript through tsx. A process
 * started through tsx spent about 0.9 s of its start-up (1.4 s of CPU) in the loader, and the
 * unit suite starts well over a hundred of them.
 *
 * The emit skips the type check (`--noCheck`: `npm run typecheck` is where types are checked), so
 * it takes a few seconds; it lives under `.tmp/test-server/` (ignored), outside node_modules so
 * that Node reads the repository's package.json (`"type": "module"`) for it and `repoRoot()` finds
 * the repository from there, and is redone only when a source it compiles has changed.
 */
const INPUTS = ['server', 'calculators', 'protocol'];
const CONFIGS = ['tsconfig.base.json', 'tsconfig.build.json', 'package-lock.json'];

const outDir = () => join(repoRoot(), '.tmp', 'test-server');

/** The compiled counterpart of a source file, e.g. `server/main/index.ts` → `.tmp/test-server/server/main/index.js`. */
export function compiledPath(source: string): string {
  return join(outDir(), source.replace(/\.ts$/, '.js'));
}

/**
 * Node's arguments to run a compiled entry point in a test process. `--liftoff-only`: V8 keeps
 * PGlite's WebAssembly (9 MB) at its baseline compiler instead of optimising it in background
 * threads, which a test server, living seconds and running a few queries, never pays back: a start
 * to the banner took 3.7 s of CPU with the optimiser and 2.3 s without, and was ready sooner.
 */
export function compiledArgs(source: string): string[] {
  return ['--liftoff-only', compiledPath(source)];
}

/** Emits the server into `.tmp/test-server/` unless the copy there matches the sources (vitest's global setup). */
export function compileServerForTests(): void {
  const root = repoRoot();
  const out = outDir();
  const stamp = join(out, '.sources');
  const digest = fingerprint(root, INPUTS, CONFIGS);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  const started = performance.now();
  // A name of our own, then a rename: a run started beside this one never reads a half-written tree.
  const part = `${out}.${process.pid}.part`;
  rmSync(part, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.build.json',
      '--noCheck',
      '--outDir',
      part,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  writeFileSync(join(part, '.sources'), digest);
  rmSync(out, { recursive: true, force: true });
  renameSync(part, out);
  console.log(`server compiled for test processes in ${Math.round(performance.now() - started)} ms`);
}

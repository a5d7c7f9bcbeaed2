#!/usr/bin/env node
// `npm test`: every suite, the independent ones side by side. The unit and integration tests
// (vitest's node and browser projects) start at once; the type check, then the lint and knip, run next to
// them, and so does the build, which the browser end-to-end suite and the size budget wait for.
// Each suite's output is printed whole when it ends (never interleaved), then one table of what
// each suite cost; the exit code is 1 when any suite failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

// `nice`: a lower CPU priority. The end-to-end suite waits on a browser and on servers that must
// answer in time, and needs about half a core; the unit suite and the type check are CPU-bound and
// take the rest. At equal priority they starved e2e: it took 572 s of wall for 241 s of CPU
// (2026-11-28). With the type check lower still (nice 15) it was starved to the run's end.
const SUITES = {
  typecheck: { cmd: [bin('tsc'), '-b', 'tsconfig.json'], nice: 10 },
  lint: { cmd: [bin('biome'), 'check', '.'], after: ['typecheck'], nice: 10 },
  // Unused files, exports and dependencies, and imports of undeclared packages (knip.json).
  knip: { cmd: [bin('knip')], after: ['typecheck'], nice: 10 },
  unit: { cmd: [bin('vitest'), 'run', '--project', 'node', '--project', 'browser'], nice: 10 },
  build: { cmd: ['npm', 'run', 'build', '--silent'] },
  e2e: { cmd: [bin('vitest'), 'run', '--project', 'e2e'], after: ['build'] },
  size: { cmd: ['npm', 'run', 'size', '--silent'], after: ['build'] },
};

/**
 * What `git status` shows, with each path's modification time: suites write screenshots, PDFs
 * and data only into ignored folders, so a run must leave this as it found it.
 */
function worktreeState() {
  const git = spawnSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: root });
  if (git.status !== 0) return undefined; // not a git checkout (a tarball): nothing to compare
  const entries = git.stdout.toString().split('\0').filter(Boolean);
  return new Map(
    entries.map((e) => {
      const path = e.slice(3);
      let mtime = 0;
      try {
        mtime = statSync(join(root, path)).mtimeMs;
      } catch {}
      return [path, `${e.slice(0, 2)} ${mtime}`];
    }),
  );
}
const before = worktreeState();

const started = performance.now();
const results = new Map();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

// Each suite runs under bash, whose `times` reports the CPU its process tree used (user + system
// of every waited-for descendant): on 2 cores the sum of these, not the wall times, sets the floor.
const cpuDir = mkdtempSync(join(tmpdir(), 'svc-test-cpu-'));
const CPU_WRAPPER = '"$@"; rc=$?; times > "$SVC_CPU_FILE"; exit $rc';

/** Seconds of CPU from bash's `times` (its second line: the children's user and system time). */
function cpuSeconds(file) {
  try {
    const children = readFileSync(file, 'utf8').trim().split('\n')[1] ?? '';
    return [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
      (s, m) => s + Number(m[1]) * 60 + Number(m[2]),
      0,
    );
  } catch {
    return undefined;
  }
}

function run(name) {
  const { nice } = SUITES[name];
  const cmd = nice ? ['nice', '-n', String(nice), ...SUITES[name].cmd] : SUITES[name].cmd;
  return new Promise((resolve) => {
    const t0 = performance.now();
    let output = '';
    const cpuFile = join(cpuDir, name);
    const child = spawn('bash', ['-c', CPU_WRAPPER, name, ...cmd], {
      cwd: root,
      env: {
        SVC_SLOWEST: '12',
        ...process.env,
        FORCE_COLOR: process.stdout.isTTY ? '1' : '0',
        SVC_CPU_FILE: cpuFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code, signal) => {
      const result = {
        code: code ?? 1,
        signal,
        ms: performance.now() - t0,
        cpu: cpuSeconds(cpuFile),
        startedAt: t0 - started,
        output,
      };
      results.set(name, result);
      const status = result.code === 0 ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n── ${name}: ${status} in ${seconds(result.ms)} ──\n${output}\n`);
      resolve(result);
    });
  });
}

const pending = new Map();
function start(name) {
  if (!pending.has(name)) {
    const deps = SUITES[name].after ?? [];
    pending.set(
      name,
      Promise.all(deps.map(start)).then((done) =>
        done.every((r) => r.code === 0) ? run(name) : skipped(name),
      ),
    );
  }
  return pending.get(name);
}

function skipped(name) {
  const result = { code: 1, signal: null, ms: 0, startedAt: performance.now() - started, skipped: true };
  results.set(name, result);
  process.stdout.write(`\n── ${name}: not run (a suite it needs failed) ──\n`);
  return result;
}

const only = process.argv.slice(2);
for (const name of only.length ? only : Object.keys(SUITES)) {
  if (!SUITES[name]) {
    console.error(`unknown suite ${name}; suites: ${Object.keys(SUITES).join(', ')}`);
    process.exit(2);
  }
  start(name);
}
await Promise.all(pending.values());

rmSync(cpuDir, { recursive: true, force: true });
const cpu = (s) => (s === undefined ? '–' : `${s.toFixed(1)} s`);
console.log('suite       started   took (wall)   CPU      result');
for (const [name, r] of [...results].sort((a, b) => a[1].startedAt - b[1].startedAt)) {
  const outcome = r.skipped ? 'not run' : r.code === 0 ? 'ok' : 'FAILED';
  console.log(
    `${name.padEnd(11)} ${seconds(r.startedAt).padStart(7)}  ${seconds(r.ms).padStart(9)}  ${cpu(r.cpu).padStart(9)}   ${outcome}`,
  );
}
const cpuTotal = [...results.values()].reduce((s, r) => s + (r.cpu ?? 0), 0);
console.log(`total ${seconds(performance.now() - started)} wall, ${cpuTotal.toFixed(1)} s CPU`);

// The skip reporter's block (server/test-support/skip-reporter.ts), repeated where it is seen.
for (const [name, r] of results) {
  const plain = (r.output ?? '').replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  const block = /━━━━ SKIPPED, NOT RUN[\s\S]*?━━━━ end of SKIPPED, NOT RUN ━━━━/.exec(plain);
  if (block) console.log(`\n${name}:\n${block[0]}`);
}
const after = worktreeState();
const written = after
  ? [...after].filter(([path, state]) => before?.get(path) !== state).map(([p]) => p)
  : [];
if (written.length) {
  console.log(
    `\nFAILED: the run wrote into files git tracks or does not ignore (write into an ignored folder such as test-results/):\n${written.map((p) => `  ${p}`).join('\n')}`,
  );
}
process.exit([...results.values()].every((r) => r.code === 0) && written.length === 0 ? 0 : 1);

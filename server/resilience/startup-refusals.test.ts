import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ProcessEnd, runServerProcessToExit } from '../test-support/server-process.ts';
import { startStack } from '../test-support/stack.ts';

const temp = (name: string) => mkdtempSync(join(tmpdir(), `svc-refuse-${name}-`));

/** A refused start: exit 1, one line saying why, no stack trace, no raw crypto error. */
function expectRefusal(end: ProcessEnd, reason: RegExp): void {
  const text = end.output.trim();
  expect(end.code, text).toBe(1);
  expect(text.split('\n'), text).toHaveLength(1);
  expect(text).toMatch(/^svc failed to start: /);
  expect(text).toMatch(reason);
  expect(text).not.toMatch(/\bat .+:\d+|Unsupported state|unable to authenticate|\[object Object\]/);
}

const embedded = (dataDir: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: '',
  REDIS_URL: '',
  DATA_DIR: dataDir,
  SEED_DEMO: 'false',
  ...extra,
});

describe.concurrent('start-up refusals of the server process', { timeout: 240_000 }, () => {
  // One real data directory, made with its own key file; each case gets a copy.
  let original: string;
  beforeAll(async () => {
    original = temp('original');
    const running = await startStack({ DATA_DIR: original, SEED_DEMO: 'false' });
    await running.close();
  }, 180_000);
  const copyOfOriginal = () => {
    const copy = join(temp('copy'), 'data');
    cpSync(original, copy, { recursive: true });
    return copy;
  };

  it('refuses a SECRET_KEY that is not the one the data directory was set up with', async () => {
    const end = await runServerProcessToExit(
      embedded(copyOfOriginal(), { SECRET_KEY: randomBytes(32).toString('hex') }),
    );
    expectRefusal(end, /SECRET_KEY is not the one this database was set up with/);
  });

  it('refuses a data directory whose key file is another one’s', async () => {
    const dataDir = copyOfOriginal();
    writeFileSync(join(dataDir, 'secret.key'), `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    const end = await runServerProcessToExit(embedded(dataDir));
    expectRefusal(end, /secret\.key belongs to another data directory/);
  });

  it('refuses a DATA_DIR that is a file', async () => {
    const file = join(temp('file'), 'notes.txt');
    writeFileSync(file, 'not a directory\n');
    expectRefusal(await runServerProcessToExit(embedded(file)), /DATA_DIR .*notes\.txt is a file/);
  });

  it('refuses, and leaves untouched, a directory that is not an svc data directory', async () => {
    const dir = temp('foreign');
    writeFileSync(join(dir, 'thesis.md'), '# mine\n');
    mkdirSync(join(dir, 'src'));
    // Explicit modes: starting a stack in this process set its umask to 077.
    chmodSync(join(dir, 'thesis.md'), 0o644);
    chmodSync(dir, 0o755);
    const end = await runServerProcessToExit(embedded(dir));
    expectRefusal(end, /is not an svc data directory \(it holds src, thesis\.md/);
    expect(readdirSync(dir).sort()).toEqual(['src', 'thesis.md']);
    expect(statSync(join(dir, 'thesis.md')).mode & 0o777).toBe(0o644);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
  });

  it('refuses a data directory whose embedded database is not one', async () => {
    const dataDir = temp('broken');
    mkdirSync(join(dataDir, 'pglite'));
    writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), 'garbage\n');
    const end = await runServerProcessToExit(embedded(dataDir));
    expectRefusal(end, /pglite is not a database svc can open/);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.ts';

describe('createLogger', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stamps each line with the time of its millisecond, as pino’s isoTime does', () => {
    const lines: { time: string; msg: string }[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const reference = pino(
      { timestamp: pino.stdTimeFunctions.isoTime },
      {
        write: (line: string) => void lines.push(JSON.parse(line)),
      },
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T23:59:59.998Z'));
    logger.info('a');
    logger.info('b');
    reference.info('reference');
    vi.setSystemTime(new Date('2026-11-28T23:59:59.999Z'));
    logger.info('c');
    vi.setSystemTime(new Date('2026-11-29T00:00:00.000Z'));
    logger.info('d');
    expect(lines.map((l) => [l.msg, l.time])).toEqual([
      ['a', '2026-11-28T23:59:59.998Z'],
      ['b', '2026-11-28T23:59:59.998Z'],
      ['reference', '2026-11-28T23:59:59.998Z'],
      ['c', '2026-11-28T23:59:59.999Z'],
      ['d', '2026-11-29T00:00:00.000Z'],
    ]);
  });
});

describe('standard output shared by a cluster’s processes', () => {
  it('is written in whole lines of at most 4,096 bytes, so workers sharing a pipe never split each other’s lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-logger-'));
    const file = join(dir, 'workers.mjs');
    const loggerModule = pathToFileURL(join(import.meta.dirname, 'logger.ts')).href;
    writeFileSync(
      file,
      `import cluster from 'node:cluster';
      import fs from 'node:fs';
      if (cluster.isPrimary) {
        for (let w = 0; w < 3; w++) cluster.fork();
      } else {
        const sizes = [];
        for (const name of ['write', 'writeSync']) {
          const original = fs[name];
          fs[name] = (fd, data, ...rest) => {
            if (fd === 1) sizes.push([Buffer.byteLength(data), String(data).endsWith('\\n')]);
            return original(fd, data, ...rest);
          };
        }
        const { createLogger } = await import(${JSON.stringify(loggerModule)});
        const logger = createLogger('info');
        // As a busy server logs: a burst of lines in each turn of the event loop.
        let i = 0;
        const turn = () => {
          for (let n = 0; n < 100; n++, i++) logger.info({ worker: cluster.worker.id, i, pad: 'é'.repeat(120) }, 'worker line');
          if (i < 1500) return setImmediate(turn);
          // The worker ends on its own once every write is done (no process.exit, which would
          // drop a write still waiting to be retried on a full pipe): here only whole lines count.
          logger.flush(() => cluster.worker.disconnect());
        };
        process.on('exit', () => fs.writeSync(2, 'sizes=' + JSON.stringify(sizes) + '\\n'));
        turn();
      }`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', file], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const lines = child.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(4500);
    for (const line of lines) expect(JSON.parse(line).msg).toBe('worker line');
    const sizes = [...child.stderr.matchAll(/sizes=(.*)/g)].flatMap(
      (m) => JSON.parse(m[1]!) as [number, boolean][],
    );
    expect(sizes.length).toBeGreaterThan(3);
    for (const [bytes, whole] of sizes) {
      expect(bytes).toBeLessThanOrEqual(4096);
      expect(whole).toBe(true);
    }
  }, 30_000);
});

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compiledPath } from '../test-support/compiled-server.ts';

const loggerModule = compiledPath('server/infra/logger.ts');

/**
 * Runs `body` in a process of its own with `logger` (createLogger('info')) in scope and every
 * synchronous write to standard output counted; returns what it wrote and the count.
 */
function run(body: string) {
  const script = `
    import fs from 'node:fs';
    const writeSync = fs.writeSync;
    let writes = 0;
    fs.writeSync = (fd, ...rest) => { if (fd === 1) writes++; return writeSync(fd, ...rest); };
    process.on('exit', () => process.stderr.write('writes=' + writes));
    const { createLogger, flushLogs } = await import(${JSON.stringify(loggerModule)});
    const logger = createLogger('info');
    ${body}
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const lines = child.stdout.split('\n').filter(Boolean);
  const msgs = lines.map((l) => (l.startsWith('{') ? (JSON.parse(l) as { msg: string }).msg : l));
  return { msgs, writes: Number(/writes=(\d+)/.exec(child.stderr)?.[1]), status: child.status };
}

describe('standard output logs', () => {
  it('writes the lines of one turn in one write, each turn its own', () => {
    const out = run(`
      for (let i = 0; i < 200; i++) logger.info({ i }, 'first turn');
      setTimeout(() => { logger.info('second turn'); logger.info('second turn'); }, 5);
    `);
    expect(out.msgs).toEqual([...Array(200).fill('first turn'), 'second turn', 'second turn']);
    expect(out.writes).toBe(2);
  });

  it('writes at once past 64 KB rather than holding a turn’s lines without bound', () => {
    const out = run(`for (let i = 0; i < 1000; i++) logger.info({ pad: 'x'.repeat(200) }, 'big');`);
    expect(out.msgs).toHaveLength(1000);
    expect(out.writes).toBeGreaterThan(1);
  });

  it('loses nothing on process.exit or an uncaught exception, and keeps order with console lines', () => {
    const exited = run(`
      logger.info('before');
      flushLogs();
      console.log('console line');
      logger.info('last');
      process.exit(3);
    `);
    expect(exited.status).toBe(3);
    expect(exited.msgs).toEqual(['before', 'console line', 'last']);
    const crashed = run(`logger.error('about to fail'); throw new Error('boom');`);
    expect(crashed.status).toBe(1);
    expect(crashed.msgs).toEqual(['about to fail']);
  });
});

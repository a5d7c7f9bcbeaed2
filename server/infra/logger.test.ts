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

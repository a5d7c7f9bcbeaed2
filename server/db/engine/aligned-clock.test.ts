import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/db.ts';
import { type AlignedClock, createAlignedClock, readDatabaseTime } from './aligned-clock.ts';

describe('a clock aligned on the database’s', () => {
  let clock: AlignedClock | undefined;
  afterEach(() => clock?.stop());

  it('runs on the database’s time when this machine’s clock is 2 minutes off, and keeps it when a measurement fails', async () => {
    let failing = false;
    clock = await createAlignedClock(
      async () => {
        if (failing) throw new Error('connection terminated');
        return new Date(Date.now() - 120_000);
      },
      { refreshMs: 20 },
    );
    expect(Math.abs(clock.offsetMs() + 120_000)).toBeLessThan(50);
    expect(Math.abs(clock.now().getTime() - (Date.now() - 120_000))).toBeLessThan(50);
    expect(clock.real).toBe(true);
    failing = true;
    await new Promise((r) => setTimeout(r, 100));
    expect(Math.abs(clock.offsetMs() + 120_000)).toBeLessThan(50);
  });

  it('reads a real database’s time', async () => {
    const database = await createTestDatabase();
    try {
      const time = await readDatabaseTime(database);
      expect(Math.abs(time.getTime() - Date.now())).toBeLessThan(5_000);
    } finally {
      await database.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { RestartPolicy } from './cluster-restarts.ts';

describe('cluster restart policy', () => {
  it('replaces a worker that served for a while every time, without limit or wait', () => {
    const policy = new RestartPolicy({ crashWindowMs: 10_000 });
    let now = 0;
    // Forty deaths, each after 11 s of serving: the old "6 in a minute" rule stopped at the sixth.
    for (let i = 0; i < 40; i++) {
      policy.started(0);
      policy.ready(0, now);
      now += 11_000;
      expect(policy.died(0, now, 'signal SIGKILL')).toEqual({
        action: 'restart',
        delayMs: 0,
        quickDeaths: 0,
      });
    }
  });

  it('backs off after quick deaths and stops at the third in a row, naming the slot and the cause', () => {
    const policy = new RestartPolicy({ crashWindowMs: 10_000, backoffMs: 500 });
    policy.started(1);
    policy.ready(1, 0);
    expect(policy.died(1, 2_000, 'exit code 1')).toEqual({ action: 'restart', delayMs: 500, quickDeaths: 1 });
    policy.started(1); // dies before it serves
    expect(policy.died(1, 3_000, 'exit code 1')).toEqual({
      action: 'restart',
      delayMs: 1_000,
      quickDeaths: 2,
    });
    policy.started(1);
    policy.ready(1, 4_000);
    const third = policy.died(1, 5_000, 'exit code 7');
    expect(third.action).toBe('stop');
    expect(third.action === 'stop' && third.reason).toMatch(
      /worker 1 is in a crash loop: it died 3 times in a row within 10 s of starting \(last: exit code 7\)/,
    );
  });

  it('forgets quick deaths once a replacement serves past the window, and counts per worker slot', () => {
    const policy = new RestartPolicy({ crashWindowMs: 10_000 });
    policy.started(0);
    expect(policy.died(0, 1_000, 'exit code 1').action).toBe('restart');
    policy.started(0);
    expect(policy.died(0, 2_000, 'exit code 1').action).toBe('restart');
    // Slot 1's quick death is its own first.
    policy.started(1);
    expect(policy.died(1, 2_500, 'exit code 1')).toMatchObject({ action: 'restart', quickDeaths: 1 });
    policy.started(0);
    policy.ready(0, 3_000);
    expect(policy.died(0, 20_000, 'signal SIGKILL')).toMatchObject({ action: 'restart', quickDeaths: 0 });
    policy.started(0);
    expect(policy.died(0, 21_000, 'exit code 1')).toMatchObject({ action: 'restart', quickDeaths: 1 });
  });
});

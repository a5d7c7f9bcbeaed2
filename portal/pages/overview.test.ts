import { expect, it } from 'vitest';
import { sameStretchLastMonth } from './overview.tsx';

it('names the stretch of last month that "Leads this month" compares with, cut at its end', () => {
  expect(sameStretchLastMonth('2026-11-28T19:00:00.000Z')).toBe('Oct 1–28');
  expect(sameStretchLastMonth('2026-03-31T09:00:00.000Z')).toBe('Feb 1–28');
  expect(sameStretchLastMonth('2026-01-05T00:30:00.000Z')).toBe('Dec 1–5');
});

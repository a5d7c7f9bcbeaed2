import { describe, expect, it } from 'vitest';
import { issuePaths, outputsOf } from '../testing.ts';
import { UNIFORM_LIFETIME_TABLE } from './uniform-lifetime-table.ts';

describe('Uniform Lifetime Table (Treas. Reg. §1.401(a)(9)-9(c), 2022)', () => {
  // The law reference's anchor values.
  it.each([
    [73, 26.5],
    [75, 24.6],
    [80, 20.2],
    [85, 16.0],
    [90, 12.2],
    [120, 2.0],
  ])('age %d → %d', (age, factor) => {
    expect(UNIFORM_LIFETIME_TABLE[age]).toBe(factor);
  });

  it('covers every age from 72 to 120 with strictly falling factors', () => {
    const ages = Object.keys(UNIFORM_LIFETIME_TABLE).map(Number);
    expect(ages).toEqual(Array.from({ length: 49 }, (_, i) => 72 + i));
    for (const age of ages.slice(1)) {
      expect(UNIFORM_LIFETIME_TABLE[age]!).toBeLessThan(UNIFORM_LIFETIME_TABLE[age - 1]!);
    }
  });
});

describe('required minimum distribution', () => {
  it.each([
    [100_000, 73, 26.5, 3_773.58],
    [100_000, 75, 24.6, 4_065.04],
    [100_000, 80, 20.2, 4_950.5], // 4,950.495… rounds half-up
    [100_000, 85, 16, 6_250],
    [100_000, 90, 12.2, 8_196.72],
    [100_000, 120, 2, 50_000],
    [100_000, 125, 2, 50_000],
    [0, 80, 20.2, 0],
    [1_000_000_000_000, 73, 26.5, 37_735_849_056.6],
  ])('%d at age %d ÷ %d → %d', (balance, age, factor, rmd) => {
    expect(outputsOf('rmd', { balance, age })).toMatchObject({ factor, rmd });
  });

  it.each([
    [{ balance: 1, age: 72 }, ['age']],
    [{ balance: 1, age: 60 }, ['age']],
    [{ balance: 1, age: 73.5 }, ['age']],
    [{ balance: 1, age: 131 }, ['age']],
    [{ balance: -1, age: 80 }, ['balance']],
    [{ age: 80 }, ['balance']],
  ])('%j → issues at %j (below the start age is a field error)', (inputs, paths) => {
    expect(issuePaths('rmd', inputs)).toEqual(paths);
  });
});

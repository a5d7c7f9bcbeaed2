import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../infra/env.ts';
import { DEFAULT_PLANS, findPlan, parsePlans } from './plans.ts';

describe('plan table', () => {
  it('defaults when PLANS is unset or blank', () => {
    expect(parsePlans(undefined)).toBe(DEFAULT_PLANS);
    expect(parsePlans('  ')).toBe(DEFAULT_PLANS);
  });

  it('overrides a known plan field by field and adds complete new plans', () => {
    const plans = parsePlans(
      '{"pro":{"seats":5},"firm-plus":{"seats":8,"sessionsPerMinute":900,"leadsPerDay":400}}',
    );
    expect(plans.pro).toEqual({ ...DEFAULT_PLANS.pro, seats: 5 });
    expect(findPlan(plans, 'firm-plus')?.leadsPerDay).toBe(400);
  });

  it.each([
    ['not json', /JSON object/],
    ['{"new":{"seats":1}}', /needs seats/],
    ['{"pro":{"seats":-1}}', /pro\.seats/],
    ['{"Bad Name":{"seats":1}}', /Bad Name/],
    ['{"pro":{"colour":"red"}}', /pro/],
  ])('refuses %s', (json, message) => {
    expect(() => parsePlans(json)).toThrow(message);
  });

  it('is not fooled by inherited names', () => {
    expect(findPlan(DEFAULT_PLANS, 'toString')).toBeUndefined();
    expect(findPlan(DEFAULT_PLANS, '__proto__')).toBeUndefined();
  });

  it('a bad PLANS stops configuration with the variable named', () => {
    expect(() => loadConfig({ PLANS: '{"x":{}}' })).toThrow(/Invalid configuration: PLANS/);
    expect(loadConfig({}).plans).toBe(DEFAULT_PLANS);
  });
});

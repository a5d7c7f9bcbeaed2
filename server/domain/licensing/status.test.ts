import { describe, expect, it } from 'vitest';
import { licenseState } from './status.ts';

const d = (iso: string) => new Date(iso);
const paid = { trialEndsAt: null, paidThrough: d('2026-06-30T00:00:00Z'), revokedAt: null };
const trial = { trialEndsAt: d('2026-03-15T00:00:00Z'), paidThrough: null, revokedAt: null };

describe('licenseState', () => {
  it.each([
    [trial, '2026-03-01T00:00:00Z', 'trial'],
    [trial, '2026-03-14T23:59:59Z', 'trial'],
    [trial, '2026-03-15T00:00:00Z', 'expired'],
    [paid, '2026-06-29T23:59:59Z', 'active'],
    [paid, '2026-06-30T00:00:00Z', 'grace'],
    [paid, '2026-07-06T23:59:59Z', 'grace'],
    [paid, '2026-07-07T00:00:00Z', 'expired'],
    [{ ...paid, revokedAt: d('2026-01-01T00:00:00Z') }, '2026-03-01T00:00:00Z', 'revoked'],
    [{ ...trial, paidThrough: d('2026-12-31T00:00:00Z') }, '2026-03-01T00:00:00Z', 'active'],
    [{ trialEndsAt: null, paidThrough: null, revokedAt: null }, '2026-03-01T00:00:00Z', 'expired'],
  ])('%j at %s → %s', (dates, now, status) => {
    expect(licenseState(dates, d(now)).status).toBe(status);
  });

  it('reports the grace end and caps token life at it', () => {
    const state = licenseState(paid, d('2026-07-01T00:00:00Z'));
    expect(state.graceEndsAt?.toISOString()).toBe('2026-07-07T00:00:00.000Z');
    expect(state.usableUntil?.toISOString()).toBe('2026-07-07T00:00:00.000Z');
    expect(state.expiresAt?.toISOString()).toBe('2026-06-30T00:00:00.000Z');
  });

  it('gives nothing usable once expired or revoked', () => {
    expect(licenseState(paid, d('2026-08-01T00:00:00Z')).usableUntil).toBeNull();
    expect(
      licenseState({ ...trial, revokedAt: d('2026-03-02T00:00:00Z') }, d('2026-03-03T00:00:00Z')).usableUntil,
    ).toBeNull();
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeKeyOf, createChallenge, verifySolution } from '../server/domain/leads/proof-of-work.ts';
import { sha256Hex, solveChallenge } from './proof-of-work.ts';

describe('the widget’s own SHA-256 and solver', () => {
  it.each([0, 1, 55, 56, 63, 64, 65, 119, 120, 200])('matches node:crypto for %i bytes', (length) => {
    const text = randomBytes(length).toString('latin1');
    expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('solves a server challenge; the server accepts the answer', async () => {
    const key = challengeKeyOf(Buffer.alloc(32, 1));
    const now = new Date();
    const c = createChallenge(key, { licenseId: 'lic_w', maxnumber: 5_000, now });
    const altcha = (await solveChallenge(c))!;
    const solution = JSON.parse(Buffer.from(altcha, 'base64').toString());
    expect(verifySolution(key, solution, { licenseId: 'lic_w', now })).toMatchObject({ ok: true });
  });
});

import type { Db } from '../../db/database.ts';
import { countLicenseLeadsSince, spendChallenge } from '../../db/spent-challenges-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { Principal } from '../credentials/principal.ts';
import type { LicensingDeps } from '../deps.ts';
import {
  type Challenge,
  challengeKeyOf,
  createChallenge,
  maxNumberFor,
  type Solution,
  verifySolution,
} from './proof-of-work.ts';

const HOUR_MS = 3_600_000;

/**
 * `POST /leads/challenge`: a proof-of-work challenge for the widget, bound to the embed session's
 * license, priced by that license's leads in the last hour (see `maxNumberFor`).
 */
export async function issueLeadChallenge(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'embed' }>,
): Promise<Challenge> {
  const now = deps.clock.now();
  const recent = await countLicenseLeadsSince(
    deps.db,
    principal.licenseId,
    new Date(now.getTime() - HOUR_MS),
  );
  return createChallenge(challengeKeyOf(deps.pepper), {
    licenseId: principal.licenseId,
    maxnumber: maxNumberFor(recent),
    now,
  });
}

/** The `altcha` field: base64 of the solution's JSON (what ALTCHA's widget sends). */
function parseSolution(text: string): Solution | null {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Record<string, unknown>;
    const { algorithm, challenge, number, salt, signature } = value;
    if (
      typeof algorithm !== 'string' ||
      typeof challenge !== 'string' ||
      typeof salt !== 'string' ||
      typeof signature !== 'string' ||
      !Number.isSafeInteger(number)
    )
      return null;
    return { algorithm, challenge, number: number as number, salt, signature };
  } catch {
    return null;
  }
}

/**
 * Checks a lead's solution and spends it, inside the lead's transaction (after the idempotency
 * record was looked up, so a retry with the same key never meets its own spent challenge). A
 * wrong, foreign or expired solution is 400 INVALID_CHALLENGE; a spent one 409 CHALLENGE_SPENT.
 */
export async function spendLeadChallenge(
  deps: LicensingDeps,
  tx: Db,
  licenseId: string,
  altcha: string,
): Promise<void> {
  const solution = parseSolution(altcha);
  const now = deps.clock.now();
  const verdict = solution && verifySolution(challengeKeyOf(deps.pepper), solution, { licenseId, now });
  if (!solution || !verdict?.ok)
    throw new AppError(
      'INVALID_CHALLENGE',
      'The proof of work does not solve a current challenge; get a new one.',
      {
        details: [{ path: 'altcha', message: verdict && !verdict.ok ? verdict.reason : 'malformed' }],
      },
    );
  const fresh = await spendChallenge(tx, {
    licenseId,
    challenge: solution.challenge,
    expiresAt: verdict.expiresAt,
    now,
  });
  if (!fresh) throw new AppError('CHALLENGE_SPENT', 'This challenge was already used; get a new one.');
}

import type { Db } from '../../db/engine/database.ts';
import { lockUntilCommit } from '../../db/repos/advisory-locks-repo.ts';
import { countPaidLeadsSince, spendChallenge } from '../../db/repos/spent-challenges-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { Principal } from '../credentials/principal.ts';
import type { LicensingDeps } from '../deps.ts';
import {
  type Challenge,
  challengeKeyOf,
  createChallenge,
  isTooEasy,
  priceFor,
  type Solution,
  verifySolution,
} from './proof-of-work.ts';

const HOUR_MS = 3_600_000;

/**
 * `POST /leads/challenge`: a proof-of-work challenge for the widget, bound to the embed session's
 * license, priced by the paid leads of the last hour from the requester's network (`sourceNet`,
 * as the spam rule counts it), with the license's other paid traffic a bounded factor
 * (`priceFor`): a visitor from a fresh network pays about the usual price during a flood from
 * elsewhere. Leads sent without a valid proof of work cost nothing and raise nobody's price.
 */
export async function issueLeadChallenge(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'embed' }>,
  sourceNet: string | null,
): Promise<Challenge> {
  const now = deps.clock.now();
  const paid = await countPaidLeadsSince(
    deps.db,
    principal.licenseId,
    new Date(now.getTime() - HOUR_MS),
    sourceNet,
  );
  return createChallenge(challengeKeyOf(deps.pepper), {
    licenseId: principal.licenseId,
    maxnumber: priceFor(paid),
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
 * Checks a lead's proof of work and spends it, inside the lead's transaction (after the
 * idempotency record was looked up, so a retry with the same key never meets its own spent
 * challenge). Nothing a visitor sends is dropped: a lead with no solution, or one that is wrong,
 * not ours, another license's, expired or already spent, is stored held (`'none'`: the caller adds
 * the `no_proof_of_work` reason). Only a valid challenge priced for a quieter hour than now
 * (stockpiled) is refused, 400 INVALID_CHALLENGE (`too_easy`): the widget fetches a new one and
 * solves again, so the visitor's lead is not lost and a stockpile buys nothing.
 */
export async function spendLeadChallenge(
  deps: LicensingDeps,
  tx: Db,
  licenseId: string,
  altcha: string | undefined,
  sourceNet: string | null,
): Promise<'ok' | 'none'> {
  const solution = altcha === undefined ? null : parseSolution(altcha);
  if (!solution) return 'none';
  const now = deps.clock.now();
  const verdict = verifySolution(challengeKeyOf(deps.pepper), solution, { licenseId, now });
  if (!verdict.ok) return 'none';
  // One at a time per license, across instances: a stockpile sent at once meets the price each
  // lead before it set, as if sent one after another. Taken before the spam rule's network locks.
  await lockUntilCommit(tx, `lead-price:${licenseId}`);
  // The price of the lead's own network: a challenge fetched from a quiet network and spent from
  // a flooding one is too easy, whoever fetched it.
  const paid = await countPaidLeadsSince(tx, licenseId, new Date(now.getTime() - HOUR_MS), sourceNet);
  const required = priceFor(paid);
  if (isTooEasy(verdict.maxnumber, required))
    throw new AppError(
      'INVALID_CHALLENGE',
      'The proof of work was priced for a quieter hour; get a new challenge and solve it.',
      { details: [{ path: 'altcha', message: 'too_easy' }] },
    );
  const fresh = await spendChallenge(tx, {
    licenseId,
    challenge: solution.challenge,
    expiresAt: verdict.expiresAt,
    now,
  });
  return fresh ? 'ok' : 'none';
}

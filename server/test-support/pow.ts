import { createHash, createHmac } from 'node:crypto';
import { type Challenge, challengeKeyOf, solveChallenge } from '../domain/leads/proof-of-work.ts';

/**
 * An `altcha` answer to a challenge the server issued, made with the server's pepper instead of
 * by search: the salt (license, expiry, price) is the server's own, only the secret number is
 * chosen here. For tests whose subject is what happens to leads, not the cost of solving (that is
 * measured by the tests that solve, the e2e flood and `npm run bench -- pow`).
 */
export function mintAltcha(pepper: Buffer, c: Challenge): string {
  const challenge = createHash('sha256').update(`${c.salt}0`).digest('hex');
  const signature = createHmac('sha256', challengeKeyOf(pepper)).update(challenge).digest('hex');
  const solution = { algorithm: 'SHA-256', challenge, number: 0, salt: c.salt, signature };
  return Buffer.from(JSON.stringify(solution)).toString('base64');
}

/**
 * What the widget does before it sends a lead, over HTTP: fetch a challenge with the embed token
 * and solve it by search. For tests against a running server, whose pepper they do not hold.
 */
export async function solvedAltcha(apiUrl: string, embedToken: string): Promise<string> {
  const res = await fetch(`${apiUrl}/v1/api/leads/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${embedToken}` },
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`POST /leads/challenge answered ${res.status}`);
  const { tries: _tries, ...solution } = solveChallenge((await res.json()) as Challenge);
  return Buffer.from(JSON.stringify(solution)).toString('base64');
}

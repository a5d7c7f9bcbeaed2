import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { newId } from '../../db/engine/ids.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  claimChallenge,
  deletePasskey,
  findPasskeyByCredentialId,
  insertChallenge,
  insertPasskey,
  listPasskeysOfUser,
  updatePasskeyUse,
} from '../../db/repos/portal-sessions-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalDeps, PortalPrincipal } from './portal-deps.ts';

const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * WebAuthn's library (and the ASN.1/COSE code under it) is loaded on the first passkey request:
 * it is the largest module graph of the server, and `npm start` should not wait for it.
 */
const webauthn = () => import('@simplewebauthn/server');

/** WebAuthn's relying party: the portal's host name (never an IP; see PUBLIC_PORTAL_URL). */
const relyingParty = (deps: PortalDeps) => {
  const url = new URL(deps.portalUrl);
  return { rpID: url.hostname, origin: url.origin };
};

const failed = () => new AppError('UNAUTHORIZED', 'The passkey could not be verified. Try again.');

async function storeChallenge(
  deps: PortalDeps,
  challenge: string,
  purpose: 'register' | 'authenticate',
  userId: string | null,
) {
  const id = newId('wac');
  const now = deps.clock.now();
  await insertChallenge(deps.db, {
    id,
    challenge,
    userId,
    purpose,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return id;
}

/** Claims a challenge once; wrong purpose, another user's or expired challenges all fail alike. */
async function redeemChallenge(
  deps: PortalDeps,
  id: string,
  purpose: 'register' | 'authenticate',
  userId: string | null,
) {
  const now = deps.clock.now();
  const row = await claimChallenge(deps.db, id, now);
  if (!row || row.purpose !== purpose || row.userId !== userId || row.expiresAt.getTime() <= now.getTime())
    throw failed();
  return row.challenge;
}

/** Step 1 of adding a passkey: options for `navigator.credentials.create` (a discoverable key). */
export async function passkeyRegistrationOptions(deps: PortalDeps, principal: PortalPrincipal) {
  const { rpID } = relyingParty(deps);
  const existing = await listPasskeysOfUser(deps.db, principal.userId);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: 'svc portal',
    rpID,
    userName: principal.email,
    userID: new TextEncoder().encode(principal.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const challengeId = await storeChallenge(deps, options.challenge, 'register', principal.userId);
  return { challengeId, options };
}

/** Step 2: verifies the authenticator's answer and stores the public key. */
export async function addPasskey(
  deps: PortalDeps,
  principal: PortalPrincipal,
  input: { challengeId: string; response: RegistrationResponseJSON; name?: string },
) {
  const expectedChallenge = await redeemChallenge(deps, input.challengeId, 'register', principal.userId);
  const { rpID, origin } = relyingParty(deps);
  const { verifyRegistrationResponse } = await webauthn();
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw failed();
  const { credential } = verification.registrationInfo;
  if (await findPasskeyByCredentialId(deps.db, credential.id))
    throw new AppError('INVALID_REQUEST', 'This passkey is already registered.');
  const now = deps.clock.now();
  const row = await insertPasskey(deps.db, {
    id: newId('pk'),
    userId: principal.userId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: input.name?.trim() || 'Passkey',
    createdAt: now,
  });
  await recordAudit(deps.db, {
    accountId: principal.accountId,
    actor: `user:${principal.email}`,
    action: 'passkey.added',
    subject: row.id,
    at: now,
  });
  return passkeyView(row);
}

/** Sign-in step 1: options for `navigator.credentials.get`, no user named (discoverable keys). */
export async function passkeySignInOptions(deps: PortalDeps) {
  const { rpID } = relyingParty(deps);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
  const challengeId = await storeChallenge(deps, options.challenge, 'authenticate', null);
  return { challengeId, options };
}

/** Sign-in step 2: verifies the signature with the stored key; returns whose passkey it was. */
export async function verifyPasskeySignIn(
  deps: PortalDeps,
  input: { challengeId: string; response: AuthenticationResponseJSON },
): Promise<{ userId: string }> {
  const expectedChallenge = await redeemChallenge(deps, input.challengeId, 'authenticate', null);
  const passkey = await findPasskeyByCredentialId(deps.db, input.response.id);
  if (!passkey) throw failed();
  const { rpID, origin } = relyingParty(deps);
  const { verifyAuthenticationResponse } = await webauthn();
  const verification = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: passkey.counter,
      transports: passkey.transports as never,
    },
    requireUserVerification: false,
  }).catch(() => ({ verified: false, authenticationInfo: undefined }));
  if (!verification.verified || !verification.authenticationInfo) throw failed();
  await updatePasskeyUse(deps.db, passkey.id, verification.authenticationInfo.newCounter, deps.clock.now());
  return { userId: passkey.userId };
}

export async function listPasskeys(deps: PortalDeps, principal: PortalPrincipal) {
  return (await listPasskeysOfUser(deps.db, principal.userId)).map(passkeyView);
}

export async function removePasskey(deps: PortalDeps, principal: PortalPrincipal, id: string) {
  if (!(await deletePasskey(deps.db, principal.userId, id)))
    throw new AppError('NOT_FOUND', 'No such passkey.');
  await recordAudit(deps.db, {
    accountId: principal.accountId,
    actor: `user:${principal.email}`,
    action: 'passkey.removed',
    subject: id,
    at: deps.clock.now(),
  });
}

const passkeyView = (p: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }) => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
});

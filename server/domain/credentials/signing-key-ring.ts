import {
  type CryptoKey,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type JWK,
} from 'jose';
import type { Db } from '../../db/engine/database.ts';
import {
  insertSigningKey,
  listSigningKeys,
  type SigningKeyRow,
  updateSigningKeyStatus,
  withSigningKeyLock,
} from '../../db/repos/signing-keys-repo.ts';
import type { Clock } from '../../lib/clock.ts';
import { encrypt } from '../../secrets/encryption.ts';
import { openSecret } from '../../secrets/secret-store.ts';
import type { KeyRing, SigningKey } from './tokens.ts';

/** Longest-lived JWT we sign (access 15 min, embed 10 min, billing link 10 min), plus slack. */
export const MAX_TOKEN_LIFETIME_MS = 20 * 60_000;
/** Instances re-read the key table this often, so a rotation reaches all of them. */
const CACHE_MS = 30_000;
/**
 * An unknown `kid` triggers an early re-read at most this often: a key minted by another instance
 * is found within seconds, while a stream of forged tokens with random kids costs no database work.
 */
export const UNKNOWN_KID_RELOAD_MS = 5_000;

interface LoadedKey {
  row: SigningKeyRow;
  publicKey: CryptoKey;
  privateKey?: CryptoKey;
}

/**
 * Ed25519 signing keys kept in the database, private halves encrypted with the key that is not in
 * the database. Rotation (`rotateSigningKeys`): a `next` key is published in the JWKS before it
 * signs; the next rotation makes it `active` and retires the old one, which stays published until
 * every token it signed has expired.
 */
export function createSigningKeyRing(deps: {
  db: Db;
  secretKey: Buffer;
  clock: Clock;
}): KeyRing & { refresh(): void } {
  let cache: { at: number; keys: LoadedKey[] } | undefined;
  let lastUnknownKidReload = Number.NEGATIVE_INFINITY;

  async function load(): Promise<LoadedKey[]> {
    const now = deps.clock.now().getTime();
    if (cache && now - cache.at < CACHE_MS) return cache.keys;
    const rows = (await listSigningKeys(deps.db)).filter((row) => isPublished(row, deps.clock.now()));
    const keys = await Promise.all(rows.map((row) => loadKey(row, deps.secretKey)));
    cache = { at: now, keys };
    return keys;
  }

  return {
    refresh: () => {
      cache = undefined;
    },
    async signingKey(): Promise<SigningKey> {
      let active = (await load()).find((k) => k.row.status === 'active');
      if (!active) {
        await ensureActiveSigningKey(deps);
        cache = undefined;
        active = (await load()).find((k) => k.row.status === 'active');
      }
      if (!active?.privateKey) throw new Error('no active signing key');
      return { kid: active.row.kid, privateKey: active.privateKey };
    },
    async verificationKey(kid) {
      let key = (await load()).find((k) => k.row.kid === kid);
      const now = deps.clock.now().getTime();
      if (!key && cache && now - lastUnknownKidReload >= UNKNOWN_KID_RELOAD_MS) {
        // A key minted by another instance since our last read.
        lastUnknownKidReload = now;
        cache = undefined;
        key = (await load()).find((k) => k.row.kid === kid);
      }
      return key?.publicKey;
    },
    async jwks() {
      return { keys: (await load()).map((k) => k.row.publicJwk as JWK) };
    },
  };
}

function isPublished(row: SigningKeyRow, now: Date): boolean {
  return row.status !== 'retired' || (row.retireAfter !== null && row.retireAfter.getTime() > now.getTime());
}

async function loadKey(row: SigningKeyRow, secretKey: Buffer): Promise<LoadedKey> {
  const publicKey = (await importJWK(row.publicJwk as JWK, 'EdDSA')) as CryptoKey;
  if (row.status !== 'active') return { row, publicKey };
  const privateKey = await importPKCS8(openSecret(secretKey, row.privateKeyEnc), 'EdDSA');
  return { row, publicKey, privateKey };
}

type KeyDeps = { db: Db; secretKey: Buffer; clock: Clock };

async function mintKey(deps: KeyDeps, status: 'next' | 'active'): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = `k_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const now = deps.clock.now();
  await insertSigningKey(deps.db, {
    kid,
    alg: 'EdDSA',
    publicJwk,
    privateKeyEnc: encrypt(deps.secretKey, await exportPKCS8(privateKey)),
    status,
    createdAt: now,
    activatedAt: status === 'active' ? now : null,
    retireAfter: null,
  });
  return kid;
}

/** First start: make one active key. Several instances may race; the advisory lock serialises them. */
export async function ensureActiveSigningKey(deps: KeyDeps): Promise<void> {
  await withKeyLock(deps, async (tx) => {
    const rows = await listSigningKeys(tx.db);
    if (!rows.some((r) => r.status === 'active')) await mintKey(tx, 'active');
  });
}

/**
 * One rotation step. With no `next` key: publish one (it does not sign yet). With one: promote it
 * to `active` and retire the current key, which stays in the JWKS until its tokens have expired.
 */
export async function rotateSigningKeys(
  deps: KeyDeps,
): Promise<{ published?: string; activated?: string; retired?: string }> {
  return withKeyLock(deps, async (tx) => {
    const rows = await listSigningKeys(tx.db);
    const next = rows.find((r) => r.status === 'next');
    if (!next) return { published: await mintKey(tx, 'next') };
    const now = deps.clock.now();
    const current = rows.find((r) => r.status === 'active');
    if (current) {
      await updateSigningKeyStatus(
        tx.db,
        current.kid,
        'retired',
        now,
        new Date(now.getTime() + MAX_TOKEN_LIFETIME_MS),
      );
    }
    await updateSigningKeyStatus(tx.db, next.kid, 'active', now);
    return { activated: next.kid, ...(current ? { retired: current.kid } : {}) };
  });
}

async function withKeyLock<T>(deps: KeyDeps, fn: (tx: KeyDeps) => Promise<T>): Promise<T> {
  return withSigningKeyLock(deps.db, (tx) => fn({ ...deps, db: tx }));
}

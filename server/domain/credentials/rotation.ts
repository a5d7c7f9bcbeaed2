import { hmacSecret, toBase62 } from './formats.ts';

/** The fields of a stored refresh token that rotation reads. */
export interface RotatingToken {
  usedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * Whether presenting an already rotated refresh token is the retry of a lost or parallel response
 * rather than a replay: the parent was used within `windowMs`, and its child is still unused and
 * live. Such a retry is answered with the same child; anything else revokes the family.
 */
export function isRotationRetry(
  parent: RotatingToken,
  child: RotatingToken | undefined,
  now: Date,
  windowMs: number,
): boolean {
  return (
    parent.usedAt !== null &&
    parent.revokedAt === null &&
    now.getTime() - parent.usedAt.getTime() <= windowMs &&
    child !== undefined &&
    child.usedAt === null &&
    child.revokedAt === null
  );
}

/**
 * The child of a refresh token is derived from the parent's plaintext (which only the client
 * holds) with the server's pepper, so a retry can be answered with the very same token without
 * ever storing a token in clear.
 */
export function childTokenOf(pepper: Buffer, parentToken: string, prefix: string): string {
  return `${prefix}${toBase62(Buffer.from(hmacSecret(pepper, `child:${parentToken}`), 'hex'))}`;
}

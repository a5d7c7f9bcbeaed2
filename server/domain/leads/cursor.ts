import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../lib/errors.ts';

/** A cursor older than this is refused ("stale"); the caller starts again without one. */
const CURSOR_TTL_MS = 24 * 3_600_000;

export type CursorKind = 'leads' | 'results';

export interface CursorPosition {
  /** The last row of the page the cursor continues from. */
  createdAt: Date;
  id: string;
  /** Snapshot time of the first page; later pages see the same rows. */
  asOf: Date;
  /** The last row's sort key when the listing is sorted by value or priority. */
  sortKey?: number;
}

interface Payload {
  v: 1;
  k: CursorKind;
  /** Short hash of the canonical filters: a cursor only continues the query that made it. */
  f: string;
  t: number;
  i: string;
  s: number;
  iat: number;
  /** Sort key (value or priority rank) of the last row, for sorted listings. */
  x?: number;
}

/** The cursor key is derived from the instance pepper, so every instance signs and checks alike. */
export const cursorKeyFrom = (pepper: Buffer): Buffer =>
  createHmac('sha256', pepper).update('svc:cursor:v1').digest();

/** Filters written in one order with undefined dropped: the same query always hashes the same. */
function filtersHash(filters: Record<string, unknown>): string {
  const canonical = Object.keys(filters)
    .sort()
    .filter((k) => filters[k] !== undefined)
    .map((k) => {
      const v = filters[k];
      return [k, v instanceof Date ? v.toISOString() : v];
    });
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 16);
}

const mac = (key: Buffer, accountId: string, body: string) =>
  createHmac('sha256', key).update(`${accountId}\n${body}`).digest().subarray(0, 18);

/**
 * Opaque, signed cursor: base64url(JSON) + "." + HMAC over the account id and the payload. The
 * account id is not in the payload: a cursor of another firm simply fails the signature.
 */
export function encodeCursor(
  key: Buffer,
  accountId: string,
  kind: CursorKind,
  filters: Record<string, unknown>,
  position: CursorPosition,
  now: Date,
): string {
  const payload: Payload = {
    v: 1,
    k: kind,
    f: filtersHash(filters),
    t: position.createdAt.getTime(),
    i: position.id,
    s: position.asOf.getTime(),
    iat: now.getTime(),
    ...(position.sortKey !== undefined ? { x: position.sortKey } : {}),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, accountId, body).toString('base64url')}`;
}

const cursorError = (message: string) =>
  new AppError('INVALID_REQUEST', message, { details: [{ path: 'cursor', message }] });

/** Checks signature, kind, filters and age; throws INVALID_REQUEST (path `cursor`) with a fix. */
export function decodeCursor(
  key: Buffer,
  accountId: string,
  kind: CursorKind,
  filters: Record<string, unknown>,
  cursor: string,
  now: Date,
): CursorPosition {
  const [body, sig, extra] = cursor.split('.');
  const given = sig ? Buffer.from(sig, 'base64url') : Buffer.alloc(0);
  const expected = body ? mac(key, accountId, body) : Buffer.alloc(18);
  if (!body || extra !== undefined || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw cursorError(
      'The cursor is not valid: it was altered or belongs to another key. Pass nextCursor exactly as returned, or omit cursor to start from the newest.',
    );
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Payload;
  } catch {
    throw cursorError('The cursor is not valid. Omit cursor to start from the newest.');
  }
  if (payload.v !== 1 || payload.k !== kind)
    throw cursorError(`This cursor belongs to another listing; use it only with the call that returned it.`);
  if (payload.f !== filtersHash(filters))
    throw cursorError(
      'This cursor was returned for other filters. Repeat the call with the same filters as the call that returned it, or omit cursor.',
    );
  if (now.getTime() - payload.iat > CURSOR_TTL_MS)
    throw cursorError('The cursor has expired (24 hours). Omit cursor to start again from the newest.');
  return {
    createdAt: new Date(payload.t),
    id: String(payload.i),
    asOf: new Date(payload.s),
    ...(typeof payload.x === 'number' ? { sortKey: payload.x } : {}),
  };
}

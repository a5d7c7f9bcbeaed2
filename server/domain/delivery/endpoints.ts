import { z } from 'zod';
import { type Db, withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  deleteEndpointRow,
  type EndpointChangeSet,
  type EndpointRow,
  findEndpoint,
  insertEndpoint,
  listEndpointsOf,
  lockEndpointRoom,
  updateEndpointRow,
} from '../../db/repos/webhook-endpoints-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { decrypt, encrypt } from '../../secrets/encryption.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import type { ActingAs } from '../deps.ts';
import { isDevHost } from '../licensing/domains.ts';
import { DEFAULT_PLANS, DEFAULT_WEBHOOK_ENDPOINTS, findPlan, type PlanTable } from '../licensing/plans.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../outbox/event-types.ts';
import type { DeliveryDeps } from './deps.ts';
import { isPrivateHostName, PRIVATE_HOST_REFUSAL } from './private-hosts.ts';
import { generateWebhookSecret } from './signing.ts';
import { hostOf } from './ssrf-guard.ts';

type Deps = Pick<DeliveryDeps, 'db' | 'clock' | 'secretKey' | 'allowPrivateHosts' | 'caches' | 'plans'>;

export const DEFAULT_ROLL_OVERLAP_SECONDS = 24 * 3600;

/** The operator (admin token, CLI): sees every account. A portal user passes its account too. */
export const OPERATOR: ActingAs = { actor: 'admin' };

function endpointView(row: EndpointRow, now: Date) {
  const rolling = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    accountId: row.accountId,
    url: row.url,
    events: row.events,
    description: row.description,
    includeTest: row.includeTest,
    status: row.disabledAt ? ('disabled' as const) : ('enabled' as const),
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretValidUntil: rolling ? row.previousSecretExpiresAt!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

const invalid = (path: string, message: string) =>
  new AppError('INVALID_REQUEST', `${path}: ${message}`, { details: [{ path, message }] });

/**
 * HTTPS to a public host; a private or local host (by its spelling: IP literals in private ranges,
 * localhost, development and local-network suffixes; nothing is resolved) and plain HTTP only for
 * a host the operator allowed with WEBHOOK_ALLOW_PRIVATE_HOSTS. Names are checked again at every
 * connection (see ssrf-guard.ts), since DNS can change after registration.
 */
export function checkEndpointUrl(text: string, allowPrivateHosts: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('url', 'Expected an absolute URL such as https://hooks.example.com/svc');
  }
  const host = hostOf(url);
  const allowed = allowPrivateHosts.includes(host);
  if (url.username || url.password) throw invalid('url', 'Credentials in the URL are not allowed');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('url', 'Use https://');
  if (!allowed && isPrivateHostName(host)) throw invalid('url', PRIVATE_HOST_REFUSAL);
  if (url.protocol !== 'https:' && !allowed) {
    throw invalid(
      'url',
      'Use https:// (plain http:// only for a host allowed with WEBHOOK_ALLOW_PRIVATE_HOSTS)',
    );
  }
  url.hash = '';
  return url.toString();
}

function parseEventTypes(events: readonly string[]): WebhookEventType[] {
  const unique = [...new Set(events.map((e) => e.trim()).filter(Boolean))];
  const unknown = unique.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (unique.length === 0 || unknown.length > 0) {
    throw invalid(
      'events',
      `${unknown.length ? `Unknown event ${unknown.join(', ')}; ` : ''}choose from ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
  }
  return unique as WebhookEventType[];
}

export interface NewEndpointInput {
  accountId: string;
  url: string;
  events: readonly string[];
  description?: string | undefined;
  includeTest?: boolean | undefined;
}

/**
 * Registers an endpoint with its own signing secret, returned here once. The secret is encrypted
 * with the instance secret key rather than hashed: it must be recovered to sign every delivery.
 */
export async function createEndpoint(deps: Deps, input: NewEndpointInput, as: ActingAs = OPERATOR) {
  if (
    (as.accountId && as.accountId !== input.accountId) ||
    !(await findAccountById(deps.db, input.accountId))
  ) {
    throw new AppError('NOT_FOUND', `No account ${input.accountId}.`);
  }
  const url = checkEndpointUrl(input.url, deps.allowPrivateHosts);
  const events = parseEventTypes(input.events);
  const secret = generateWebhookSecret();
  const now = deps.clock.now();
  const row = await withTransaction(deps.db, async (tx) => {
    await checkEndpointRoom(tx, deps.plans ?? DEFAULT_PLANS, input.accountId);
    return insertEndpoint(tx, {
      id: newId('whe'),
      accountId: input.accountId,
      url,
      events,
      description: input.description ?? null,
      includeTest: input.includeTest ?? false,
      secretEnc: encrypt(deps.secretKey, secret),
      createdAt: now,
      updatedAt: now,
    });
  });
  await invalidateCaches(deps); // results of this account now have a subscriber to ask about
  await recordAudit(deps.db, {
    accountId: input.accountId,
    actor: as.actor,
    action: 'webhook.created',
    subject: row.id,
    data: { events },
    at: now,
  });
  return { endpoint: endpointView(row, now), secret };
}

/**
 * Refuses a new endpoint past the firm's plan limit (`webhookEndpoints`, default 10): every
 * endpoint costs delivery capacity on every lead, and a firm with hundreds could still crowd the
 * queue. The firm's best live license decides; the account row is locked so two requests at once
 * cannot both take the last place.
 */
async function checkEndpointRoom(tx: Db, plans: PlanTable, accountId: string): Promise<void> {
  const { livePlans, endpoints } = await lockEndpointRoom(tx, accountId);
  const limit = Math.max(
    0,
    ...livePlans.map((plan) => findPlan(plans, plan)?.webhookEndpoints ?? DEFAULT_WEBHOOK_ENDPOINTS),
  );
  const cap = livePlans.length ? limit : DEFAULT_WEBHOOK_ENDPOINTS;
  if (endpoints >= cap)
    throw new AppError(
      'ENDPOINT_LIMIT_REACHED',
      `This firm already has ${cap} webhook endpoints, the most its plan allows. Delete one it no longer uses, or point several event types at one endpoint.`,
    );
}

export async function listEndpoints(deps: Deps, accountId: string, scope?: { accountId?: string }) {
  if ((scope?.accountId && scope.accountId !== accountId) || !(await findAccountById(deps.db, accountId)))
    throw new AppError('NOT_FOUND', `No account ${accountId}.`);
  const rows = await listEndpointsOf(deps.db, accountId);
  const now = deps.clock.now();
  return rows.map((r) => endpointView(r, now));
}

/** An endpoint of any kind (a CRM destination too): deliveries, replay and the test share one mechanism. */
export async function requireEndpoint(db: Db, id: string, accountId?: string): Promise<EndpointRow> {
  const row = await findEndpoint(db, id, accountId);
  if (!row) throw new AppError('NOT_FOUND', `No webhook endpoint ${id}.`);
  return row;
}

/** A webhook endpoint proper: a CRM destination is changed through the destination verbs. */
async function requireWebhook(db: Db, id: string, accountId?: string): Promise<EndpointRow> {
  const row = await requireEndpoint(db, id, accountId);
  if (row.kind !== 'webhook') throw new AppError('NOT_FOUND', `No webhook endpoint ${id}.`);
  return row;
}

/** Deletes the endpoint with its deliveries and their attempt logs. */
export async function deleteEndpoint(deps: Deps, id: string, as: ActingAs = OPERATOR) {
  const row = await requireWebhook(deps.db, id, as.accountId);
  await deleteEndpointRow(deps.db, id);
  await recordAudit(deps.db, {
    accountId: row.accountId,
    actor: as.actor,
    action: 'webhook.deleted',
    subject: id,
    at: deps.clock.now(),
  });
  return { deleted: true, id };
}

/**
 * A new secret, returned once. The old one keeps signing beside it (two signatures per delivery)
 * for `overlapSeconds`, so the receiver can switch without a window of failed verifications;
 * `overlapSeconds: 0` ends the old secret now.
 */
export async function rollEndpointSecret(
  deps: Deps,
  id: string,
  overlapSeconds: number,
  as: ActingAs = OPERATOR,
) {
  const row = await requireWebhook(deps.db, id, as.accountId);
  const now = deps.clock.now();
  const secret = generateWebhookSecret();
  const updated = await updateEndpointRow(deps.db, id, {
    secretEnc: encrypt(deps.secretKey, secret),
    previousSecretEnc: overlapSeconds > 0 ? row.secretEnc : null,
    previousSecretExpiresAt: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
    updatedAt: now,
  });
  await recordAudit(deps.db, {
    accountId: row.accountId,
    actor: as.actor,
    action: 'webhook.secret_rolled',
    subject: id,
    data: { overlapSeconds },
    at: now,
  });
  return { endpoint: endpointView(updated, now), secret };
}

/** Turns a disabled endpoint back on; its pending deliveries resume. */
export async function enableEndpoint(deps: Deps, id: string, as: ActingAs = OPERATOR) {
  const row = await requireWebhook(deps.db, id, as.accountId);
  const now = deps.clock.now();
  const updated = await updateEndpointRow(deps.db, id, {
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    updatedAt: now,
  });
  await invalidateCaches(deps);
  await recordAudit(deps.db, {
    accountId: row.accountId,
    actor: as.actor,
    action: 'webhook.enabled',
    subject: id,
    at: now,
  });
  return { endpoint: endpointView(updated, now) };
}

/** `PATCH` of an endpoint (admin API and portal): every field optional. */
export const EndpointChangesSchema = z
  .object({
    events: z.array(z.string().max(40)).min(1).max(WEBHOOK_EVENT_TYPES.length).optional(),
    description: z.string().trim().max(200).nullable().optional(),
    includeTest: z.boolean().optional(),
    /** false: nothing new is queued and pending deliveries wait; true: on again, as `enableEndpoint`. */
    enabled: z.boolean().optional(),
  })
  .strict();

export type EndpointChanges = z.output<typeof EndpointChangesSchema>;

/**
 * Changes what an endpoint receives (events, test data), its description, or whether it is on.
 * While off, no new events are queued for it and its pending deliveries wait; they resume when it
 * is turned on again (as after `enableEndpoint`). The URL and secret never change here (a new URL
 * is a new endpoint, a new secret is a roll). Audited with the fields before and after.
 */
export async function updateEndpoint(
  deps: Deps,
  id: string,
  input: EndpointChanges,
  as: ActingAs = OPERATOR,
) {
  const row = await requireWebhook(deps.db, id, as.accountId);
  const now = deps.clock.now();
  const set: EndpointChangeSet = {};
  if (input.events !== undefined) {
    const events = parseEventTypes(input.events);
    if (events.join(',') !== row.events.join(',')) set.events = events;
  }
  if (input.description !== undefined && (input.description || null) !== row.description)
    set.description = input.description || null;
  if (input.includeTest !== undefined && input.includeTest !== row.includeTest)
    set.includeTest = input.includeTest;
  if (input.enabled === false && !row.disabledAt)
    Object.assign(set, { disabledAt: now, disabledReason: 'Turned off' });
  if (input.enabled === true && row.disabledAt)
    Object.assign(set, { disabledAt: null, disabledReason: null, failingSince: null });
  if (Object.keys(set).length === 0) return { endpoint: endpointView(row, now) };
  const updated = await updateEndpointRow(deps.db, id, { ...set, updatedAt: now });
  await invalidateCaches(deps);
  const fields = Object.keys(set).filter((k) => k !== 'disabledReason' && k !== 'failingSince');
  const pick = (r: EndpointRow) =>
    Object.fromEntries(
      fields.map((k) => [k, k === 'disabledAt' ? r.disabledAt !== null : r[k as keyof EndpointRow]]),
    );
  await recordAudit(deps.db, {
    accountId: row.accountId,
    actor: as.actor,
    action: 'webhook.updated',
    subject: id,
    data: { before: pick(row), after: pick(updated) },
    at: now,
  });
  return { endpoint: endpointView(updated, now) };
}

/** The secrets that sign now: the current one, and the previous one during its overlap. */
export function signingSecrets(secretKey: Buffer, row: EndpointRow, now: Date): string[] {
  const secrets = [decrypt(secretKey, row.secretEnc)];
  if (row.previousSecretEnc && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) {
    secrets.push(decrypt(secretKey, row.previousSecretEnc));
  }
  return secrets;
}

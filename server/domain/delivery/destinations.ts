import { z } from 'zod';
import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { latestDeliveriesOf } from '../../db/repos/webhook-deliveries-repo.ts';
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
import type { ActingAs } from '../deps.ts';
import { type Connector, DESTINATION_VENDORS, type DestinationVendor } from '../destinations/connector.ts';
import { CONNECTORS } from '../destinations/connectors/index.ts';
import type { DeliveryDeps } from './deps.ts';
import { OPERATOR } from './endpoints.ts';

type Deps = Pick<DeliveryDeps, 'db' | 'clock' | 'secretKey'>;

/** A firm has at most this many CRM destinations (each costs one request per lead). */
const MAX_DESTINATIONS = 10;

const invalid = (path: string, message: string) =>
  new AppError('INVALID_REQUEST', `${path}: ${message}`, { details: [{ path, message }] });

const Credential = z
  .string()
  .trim()
  .min(8, 'too short to be the CRM’s credential')
  .max(500)
  .regex(/^\S+$/, 'a credential has no spaces');

export const NewDestinationSchema = z
  .object({
    accountId: z.string().min(1).max(64),
    vendor: z.enum(DESTINATION_VENDORS),
    name: z.string().trim().max(100).optional(),
    credential: Credential,
    settings: z.record(z.string(), z.unknown()).optional(),
    includeTest: z.boolean().optional(),
  })
  .strict();

export const DestinationChangesSchema = z
  .object({
    name: z.string().trim().max(100).nullable().optional(),
    /** Replaces the settings (the vendor's own fields; see GET …/destinations/vendors). */
    settings: z.record(z.string(), z.unknown()).optional(),
    includeTest: z.boolean().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

const connectorFor = (vendor: string): Connector => (CONNECTORS as Record<string, Connector>)[vendor]!;

function parseSettings(vendor: DestinationVendor, raw: unknown): Record<string, unknown> {
  const parsed = connectorFor(vendor).settings.safeParse(raw ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0]!;
  throw invalid(['settings', ...issue.path].join('.'), issue.message);
}

/** What a firm's owners and admins see: settings and the credential's last four characters, never the rest. */
function destinationView(secretKey: Buffer, row: EndpointRow) {
  const credential = decrypt(secretKey, row.secretEnc);
  return {
    id: row.id,
    accountId: row.accountId,
    vendor: row.kind as DestinationVendor,
    label: connectorFor(row.kind)?.label ?? row.kind,
    name: row.description,
    url: row.url,
    settings: row.destinationConfig ?? {},
    credentialLast4: credential.slice(-4),
    includeTest: row.includeTest,
    status: row.disabledAt ? ('disabled' as const) : ('enabled' as const),
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    pausedUntil: row.pausedUntil?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function requireDestination(deps: Pick<Deps, 'db'>, id: string, accountId?: string) {
  const row = await findEndpoint(deps.db, id, accountId);
  if (!row || row.kind === 'webhook') throw new AppError('NOT_FOUND', `No destination ${id}.`);
  return row;
}

async function audit(deps: Deps, row: EndpointRow, as: ActingAs, action: string, data: object = {}) {
  await recordAudit(deps.db, {
    accountId: row.accountId,
    actor: as.actor,
    action: `destination.${action}` as 'destination.created',
    subject: row.id,
    data: { vendor: row.kind, ...data },
    at: deps.clock.now(),
  });
}

/**
 * Adds a CRM destination: a delivery target of the vendor's kind on the webhook outbox. Its
 * settings are checked against the vendor's connector; its credential is encrypted with the
 * server's secret key (so `secrets rotate` re-encrypts it) and only its last four characters are
 * shown from now on. It receives `lead.created` only, from the next lead on.
 */
export async function createDestination(
  deps: Deps,
  input: z.output<typeof NewDestinationSchema>,
  as: ActingAs = OPERATOR,
) {
  if (
    (as.accountId && as.accountId !== input.accountId) ||
    !(await findAccountById(deps.db, input.accountId))
  )
    throw new AppError('NOT_FOUND', `No account ${input.accountId}.`);
  const settings = parseSettings(input.vendor, input.settings);
  const connector = connectorFor(input.vendor);
  const now = deps.clock.now();
  const row = await withTransaction(deps.db, async (tx) => {
    const { endpoints } = await lockEndpointRoom(tx, input.accountId, 'destinations');
    if (endpoints >= MAX_DESTINATIONS)
      throw new AppError(
        'ENDPOINT_LIMIT_REACHED',
        `This firm already has ${MAX_DESTINATIONS} CRM destinations. Remove one it no longer uses.`,
      );
    return insertEndpoint(tx, {
      id: newId('dst'),
      accountId: input.accountId,
      kind: input.vendor,
      url: connector.url(settings as never),
      events: ['lead.created'],
      description: input.name || connector.label,
      includeTest: input.includeTest ?? false,
      secretEnc: encrypt(deps.secretKey, input.credential),
      destinationConfig: settings,
      createdAt: now,
      updatedAt: now,
    });
  });
  await audit(deps, row, as, 'created');
  return { destination: destinationView(deps.secretKey, row) };
}

/** A firm's destinations, newest first, each with its latest delivery. */
export async function listDestinations(deps: Deps, accountId: string, scope?: { accountId?: string }) {
  if ((scope?.accountId && scope.accountId !== accountId) || !(await findAccountById(deps.db, accountId)))
    throw new AppError('NOT_FOUND', `No account ${accountId}.`);
  const rows = await listEndpointsOf(deps.db, accountId, 'destinations');
  return Promise.all(
    rows.map(async (r) => ({
      ...destinationView(deps.secretKey, r),
      lastDelivery: await lastDelivery(deps, r.id),
    })),
  );
}

async function lastDelivery(deps: Pick<Deps, 'db'>, id: string) {
  const [latest] = await latestDeliveriesOf(deps.db, id, 1);
  if (!latest) return null;
  const d = latest.delivery;
  return {
    id: d.id,
    status: d.status,
    test: latest.test,
    createdAt: d.createdAt.toISOString(),
    completedAt: d.completedAt?.toISOString() ?? null,
  };
}

export async function showDestination(deps: Deps, id: string, as: ActingAs = OPERATOR) {
  const row = await requireDestination(deps, id, as.accountId);
  return {
    destination: { ...destinationView(deps.secretKey, row), lastDelivery: await lastDelivery(deps, id) },
  };
}

/**
 * Changes a destination's name, settings or test-lead choice, or turns it off or on. Turned on,
 * what waited goes out, oldest first, one at a time (its pause after a 429 is kept). Audited with
 * the names of the fields changed (never their values: settings may name a firm's fields).
 */
export async function updateDestination(
  deps: Deps,
  id: string,
  input: z.output<typeof DestinationChangesSchema>,
  as: ActingAs = OPERATOR,
) {
  const row = await requireDestination(deps, id, as.accountId);
  const now = deps.clock.now();
  const set: EndpointChangeSet = {};
  if (input.name !== undefined) set.description = input.name || connectorFor(row.kind).label;
  if (input.settings !== undefined) {
    const settings = parseSettings(row.kind as DestinationVendor, input.settings);
    set.destinationConfig = settings;
    set.url = connectorFor(row.kind).url(settings as never);
  }
  if (input.includeTest !== undefined) set.includeTest = input.includeTest;
  if (input.enabled === false && !row.disabledAt)
    Object.assign(set, { disabledAt: now, disabledReason: 'Turned off' });
  if (input.enabled === true && row.disabledAt)
    Object.assign(set, { disabledAt: null, disabledReason: null, failingSince: null });
  if (Object.keys(set).length === 0) return { destination: destinationView(deps.secretKey, row) };
  const updated = await updateEndpointRow(deps.db, id, { ...set, updatedAt: now });
  const fields = Object.keys(set).filter((k) => !['disabledReason', 'failingSince', 'url'].includes(k));
  const action =
    fields.length === 1 && fields[0] === 'disabledAt' ? (input.enabled ? 'enabled' : 'disabled') : 'updated';
  await audit(deps, row, as, action, action === 'updated' ? { fields } : {});
  return { destination: destinationView(deps.secretKey, updated) };
}

export const enableDestination = (deps: Deps, id: string, as: ActingAs = OPERATOR) =>
  updateDestination(deps, id, { enabled: true }, as);
export const disableDestination = (deps: Deps, id: string, as: ActingAs = OPERATOR) =>
  updateDestination(deps, id, { enabled: false }, as);

/**
 * Replaces the credential (the firm made a new one in its CRM). A destination the CRM turned off
 * for a refused credential stays off until it is enabled: the firm decides when what waited goes.
 */
export async function rollDestinationCredentials(
  deps: Deps,
  id: string,
  credential: string,
  as: ActingAs = OPERATOR,
) {
  const parsed = Credential.safeParse(credential);
  if (!parsed.success) throw invalid('credential', parsed.error.issues[0]!.message);
  const row = await requireDestination(deps, id, as.accountId);
  const updated = await updateEndpointRow(deps.db, id, {
    secretEnc: encrypt(deps.secretKey, parsed.data),
    updatedAt: deps.clock.now(),
  });
  await audit(deps, row, as, 'credentials_rolled');
  return { destination: destinationView(deps.secretKey, updated) };
}

/** Removes the destination with its deliveries and their logs. */
export async function deleteDestination(deps: Deps, id: string, as: ActingAs = OPERATOR) {
  const row = await requireDestination(deps, id, as.accountId);
  await deleteEndpointRow(deps.db, id);
  await audit(deps, row, as, 'deleted');
  return { deleted: true, id };
}

/** Each vendor's setup: its credential, its settings and where the firm finds them, its documentation. */
export const vendorCatalog = () =>
  DESTINATION_VENDORS.map((vendor) => {
    const c = connectorFor(vendor);
    return {
      vendor,
      label: c.label,
      credential: c.credential,
      settings: c.settingHelp,
      customFields: c.customFields,
      docs: [...c.docs],
    };
  });

import { createHash } from 'node:crypto';
import { calculators, isCalculatorSlug } from '../../../calculators/index.ts';
import type { LeadView, LostReason } from '../../contracts/lead.ts';
import { type Db, withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  deleteIdempotencyKey,
  findIdempotencyKey,
  insertIdempotencyKey,
  purgeExpiredKeys,
} from '../../db/repos/idempotency-repo.ts';
import {
  findLead,
  insertLead,
  type LeadRow,
  type LeadStatus,
  releaseLead,
  updateLeadStatus,
} from '../../db/repos/leads-repo.ts';
import { findResult } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { type ConsentLanguage, type ConsentVersion, consentForLanguage } from '../accounts/consent.ts';
import { pageOnOrigin } from '../activation/page-on-origin.ts';
import { cachedAccount, cachedConsentVersion } from '../caches/cached-lookups.ts';
import type { Principal } from '../credentials/principal.ts';
import type { LicensingDeps } from '../deps.ts';
import { alert, planOf } from '../licensing/ceilings.ts';
import { joinAlertDigest, noteQuarantined } from '../outbox/digests.ts';
import { enqueueLeadEvent } from '../outbox/outbox.ts';
import { spendLeadChallenge } from './lead-challenge.ts';
import { leadConsent } from './lead-consent.ts';
import { leadValue, priorityOf, rateLead } from './lead-priority.ts';
import { leadResult, type ResultSource } from './lead-result.ts';
import { type Triage, triageLead } from './lead-triage.ts';

/** Idempotency keys are kept this long (Stripe keeps them 24 hours). */
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface LeadInput {
  resultId?: string;
  calculator: string;
  name: string;
  email: string;
  phone?: string;
  state: string;
  consent: true;
  /**
   * The consent version the widget showed (from its embed session). Stored as sent when it is a
   * version of this firm, even an older one; absent (older widgets), the current version is stored
   * and the lead is marked `consent.assumed`.
   */
  consentVersionId?: string;
  /** Accepted for compatibility and ignored: consent text is never taken from a client. */
  consentText?: string;
  /** Honeypot: invisible to people, filled in by bots. */
  website?: string;
  /**
   * Where consent was given: the host page as the widget reported it; stored as origin + path, and
   * only when it is on the embed session's origin (`pageOnOrigin`).
   */
  page?: string;
  /** Proof of work: base64 JSON of a solved challenge (`POST /leads/challenge`); never hashed. */
  altcha?: string;
  /** The language the widget was shown in (`en` when absent). */
  language?: 'en' | 'es' | undefined;
}

export interface StoredResponse {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

/** The request's identity for its Idempotency-Key; the proof of work is not part of it (a retry may carry a new one). */
const requestHash = (input: LeadInput) =>
  createHash('sha256')
    .update(
      JSON.stringify(
        Object.keys(input)
          .filter((k) => k !== 'altcha')
          .sort()
          .map((k) => [k, input[k as keyof LeadInput]]),
      ),
    )
    .digest('hex');

class KeyTaken extends Error {}

/**
 * `POST /leads`. The lead and its idempotency record are written in one transaction, and the
 * answer goes out only after it commits. A retry with the same key gets the first answer again;
 * the same key with another body is refused; a race on one key stores one lead.
 */
export async function submitLead(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'embed' }>,
  key: string,
  input: LeadInput,
  source: { sourceNet?: string | null } = {},
): Promise<StoredResponse> {
  if (!isCalculatorSlug(input.calculator)) {
    throw new AppError('INVALID_REQUEST', `Unknown calculator "${input.calculator}".`, {
      details: [{ path: 'calculator', message: `One of: ${calculators.map((c) => c.slug).join(', ')}` }],
    });
  }
  if (input.website) {
    // A bot: answer as if stored, store nothing.
    return {
      status: 201,
      body: { leadId: newId('lead'), status: 'new', createdAt: deps.clock.now().toISOString() },
      replayed: false,
    };
  }
  const hash = requestHash(input);
  const base = await leadContext(
    deps,
    principal,
    source.sourceNet ?? null,
    input.consentVersionId,
    input.language ?? 'en',
  );
  let overQuota = false;
  let fresh: { held: boolean; page: string | null } | undefined;
  try {
    const stored = await withTransaction(deps.db, async (tx) => {
      const stored = await replay(deps, tx, principal.accountId, key, hash);
      if (stored) return stored;
      // Test-mode sessions (development hosts) are never held; they need no proof of work.
      const work = principal.test
        ? 'ok'
        : await spendLeadChallenge(deps, tx, principal.licenseId, input.altcha, source.sourceNet ?? null);
      // Counted inside the transaction, under the network locks (lead-triage.ts).
      const context = { ...base, triage: await triageIn(deps, tx, principal, input, base) };
      if (context.triage.overQuota) overQuota = true;
      const result = input.resultId ? await findResult(tx, principal.accountId, input.resultId) : null;
      if (input.resultId && !result) {
        throw new AppError('INVALID_REQUEST', 'resultId does not name a result of this firm.', {
          details: [{ path: 'resultId', message: 'Unknown result' }],
        });
      }
      await purgeExpiredKeys(tx, principal.accountId, deps.clock.now());
      const lead = await insertLead(tx, {
        ...(await leadValues(deps, tx, principal, key, input, withoutWork(context, work === 'none'))),
        // Value and priority, rated once from the result as stored (lead-priority.ts).
        ...rateLead(result ?? null),
      });
      fresh = { held: lead.quarantinedAt !== null, page: lead.page };
      if (lead.quarantinedAt) await noteQuarantined(tx, lead.accountId, lead.createdAt);
      // A digested lead's alert and webhook go out with its hour's digest instead; CRM destinations
      // still take it on its own (issue 42).
      else
        await enqueueLeadEvent(
          tx,
          'lead.created',
          lead,
          toLeadView({ ...lead, result: result ?? null }),
          lead.createdAt,
          { destinationsOnly: lead.digestId !== null },
        );
      const body = { leadId: lead.id, status: lead.status, createdAt: lead.createdAt.toISOString() };
      const now = deps.clock.now();
      const inserted = await insertIdempotencyKey(tx, {
        accountId: principal.accountId,
        key,
        requestHash: hash,
        responseStatus: 201,
        responseBody: body,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      if (!inserted) throw new KeyTaken();
      return { status: 201, body, replayed: false };
    });
    // Counted for the funnel once committed (a replay counts nothing).
    if (fresh && !stored.replayed)
      deps.funnel?.add({
        kind: fresh.held ? 'held' : 'lead',
        accountId: principal.accountId,
        licenseId: principal.licenseId,
        calculator: input.calculator,
        page: fresh.page,
        language: input.language ?? 'en',
        test: principal.test,
      });
    // The first lead past the plan's daily figure writes the ceiling alert (after the commit: it
    // writes on its own connection).
    if (overQuota)
      await alert(
        deps,
        { id: principal.licenseId, accountId: principal.accountId, plan: principal.plan },
        'ceiling.leads_per_day',
        { quota: base.quota },
      );
    return stored;
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    // A concurrent request with the same key committed first; our lead was rolled back.
    const stored = await replay(deps, deps.db, principal.accountId, key, hash);
    if (!stored) throw error;
    return stored;
  }
}

async function replay(
  deps: LicensingDeps,
  db: Db,
  accountId: string,
  key: string,
  hash: string,
): Promise<StoredResponse | undefined> {
  const row = await findIdempotencyKey(db, accountId, key);
  if (!row) return undefined;
  if (row.expiresAt.getTime() <= deps.clock.now().getTime()) {
    await deleteIdempotencyKey(db, accountId, key);
    return undefined;
  }
  if (row.requestHash !== hash) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was used with a different request body.',
    );
  }
  return { status: row.responseStatus, body: row.responseBody as Record<string, unknown>, replayed: true };
}

interface LeadContext {
  consent: ConsentVersion;
  /** No version was named (an older widget): `consent` is the one in force, assumed. */
  consentAssumed: boolean;
  triage: Triage;
  quota: number;
  sourceNet: string | null;
}

/**
 * The consent version the visitor saw: the one the widget named, when it is a version of this
 * firm (older ones too: a firm may publish a new text while the visitor is on the page), else
 * INVALID_REQUEST; without a name, the version in force (its default text is written as version 1
 * on first use), marked as assumed.
 */
async function consentSeen(
  deps: LicensingDeps,
  accountId: string,
  versionId: string | undefined,
  language: ConsentLanguage,
): Promise<{ consent: ConsentVersion; consentAssumed: boolean }> {
  if (versionId !== undefined) {
    const named = await cachedConsentVersion(deps, accountId, versionId);
    if (!named) {
      throw new AppError(
        'INVALID_REQUEST',
        'consentVersionId does not name a consent version of this firm.',
        {
          details: [{ path: 'consentVersionId', message: 'Unknown consent version' }],
        },
      );
    }
    return { consent: named, consentAssumed: false };
  }
  const account = await cachedAccount(deps, accountId);
  const consent = await consentForLanguage(deps, accountId, account?.name ?? 'this firm', language);
  return { consent, consentAssumed: true };
}

/** What is known before the lead's transaction: the consent the visitor saw, the plan's figure. */
async function leadContext(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'embed' }>,
  sourceNet: string | null,
  consentVersionId: string | undefined,
  language: ConsentLanguage,
): Promise<Omit<LeadContext, 'triage'>> {
  const seen = await consentSeen(deps, principal.accountId, consentVersionId, language);
  const quota = planOf(deps.plans, principal.plan).leadsPerDay;
  return { ...seen, quota, sourceNet: principal.test ? null : sourceNet };
}

/**
 * The spam rule's verdict (`triageLead`), inside the lead's transaction: held for the lead's own
 * signals, or live — alerted on its own, or past the plan's daily figure grouped into the hour's
 * digest. Test-mode leads are never held.
 */
async function triageIn(
  deps: LicensingDeps,
  tx: Db,
  principal: Extract<Principal, { kind: 'embed' }>,
  input: LeadInput,
  base: Omit<LeadContext, 'triage'>,
): Promise<Triage> {
  if (principal.test) return { reasons: [], digest: false, overQuota: false };
  return triageLead(tx, {
    licenseId: principal.licenseId,
    sourceNet: base.sourceNet,
    name: input.name,
    email: input.email,
    quota: base.quota,
    now: deps.clock.now(),
  });
}

/**
 * A lead without a valid, unspent proof of work is no real visitor's: it is held with the reason
 * `no_proof_of_work` (stored, never dropped), and as a held lead it joins no digest.
 */
function withoutWork(context: LeadContext, none: boolean): LeadContext {
  if (!none) return context;
  const reasons = [...context.triage.reasons, 'no_proof_of_work' as const];
  return { ...context, triage: { ...context.triage, reasons, digest: false } };
}

async function leadValues(
  deps: LicensingDeps,
  tx: Db,
  principal: Extract<Principal, { kind: 'embed' }>,
  key: string,
  input: LeadInput,
  context: LeadContext,
) {
  const now = deps.clock.now();
  const held = context.triage.reasons.length > 0;
  const id = newId('lead');
  const page = pageOnOrigin(principal, input.page);
  const digestId = context.triage.digest
    ? await joinAlertDigest(tx, { ...principal, id }, context.quota, now, deps.portalLeadsUrl)
    : null;
  return {
    id,
    accountId: principal.accountId,
    licenseId: principal.licenseId,
    calculator: input.calculator,
    resultId: input.resultId ?? null,
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    state: input.state,
    status: 'new' as const,
    consentText: context.consent.text,
    consentVersionId: context.consent.id,
    consentAssumed: context.consentAssumed,
    consentLanguage: context.consent.language,
    language: input.language ?? 'en',
    consentedAt: now,
    page: page.page,
    pageVerified: page.verified,
    idempotencyKey: key,
    test: principal.test,
    quarantinedAt: held ? now : null,
    quarantineReasons: context.triage.reasons,
    sourceNet: context.sourceNet,
    digestId,
    createdAt: now,
    updatedAt: now,
  };
}

/** The lead's public shape: declared once, in server/contracts/lead.ts. */
export type { LeadView };

/**
 * The lead's public shape, the one object REST, webhooks, the alert mail, the CSV and the portal
 * are built from. `result` is the linked calculation (null when the lead names none); callers pass
 * it explicitly so a lead is never shown without the figures it has.
 */
export function toLeadView(row: LeadRow & { result: ResultSource | null }): LeadView {
  return {
    leadId: row.id,
    calculator: row.calculator,
    resultId: row.resultId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    state: row.state,
    status: row.status as LeadStatus,
    consentText: row.consentText,
    consentVersionId: row.consentVersionId,
    consentedAt: row.consentedAt.toISOString(),
    consent: leadConsent(row),
    result: leadResult(row.result),
    test: row.test,
    quarantined: row.quarantinedAt !== null,
    quarantineReasons: row.quarantinedAt !== null ? row.quarantineReasons : [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    language: row.language,
    ...(row.status === 'lost' && row.lostReason ? { lostReason: row.lostReason as LostReason } : {}),
    ...optional('value', leadValue(row.result)),
    ...optional('priority', priorityOf(row)),
  };
}

/** A field that is absent, not null, when it was not computed (the contract's rule). */
const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

const TRANSITIONS: Record<LeadStatus, LeadStatus[]> = {
  new: ['contacted', 'converted', 'lost'],
  contacted: ['converted', 'lost'],
  converted: [],
  // A lost lead that comes back is worked again.
  lost: ['contacted'],
};

/** The statuses a lead in `from` may move to (what a picker offers). */
export const nextStatuses = (from: LeadStatus): readonly LeadStatus[] => TRANSITIONS[from];

/**
 * Who acted, for the audit trail: `user:<e-mail>` (portal), `apikey:<id>`, `mcp_grant:<id>` (an AI
 * app connected by OAuth), `operator`.
 */
export function actorOfPrincipal(principal: Principal): string {
  if (principal.kind === 'apikey') return `apikey:${principal.apiKeyId}`;
  if (principal.kind === 'mcp') return `mcp_grant:${principal.grantId}`;
  return `${principal.kind}:${principal.domain}`;
}

/**
 * new → contacted → converted, new → converted, new or contacted → lost (with a reason), and a
 * lost lead back to contacted; anything else is INVALID_TRANSITION. The change, its `lead.updated`
 * event (the lead, plus `previousStatus`) and the audit entry (who, from, to, why lost) commit
 * together, whichever door it came through (portal, REST, MCP).
 */
export async function changeLeadStatus(
  deps: LicensingDeps,
  accountId: string,
  leadId: string,
  to: LeadStatus,
  actor: string,
  lostReason?: LostReason,
): Promise<LeadView> {
  if (to === 'lost' && !lostReason)
    throw new AppError(
      'INVALID_REQUEST',
      'Say why the lead was lost: lostReason is required with status lost.',
      {
        details: [{ path: 'lostReason', message: 'One of went_elsewhere, not_a_fit, no_answer, other' }],
      },
    );
  if (to !== 'lost' && lostReason)
    throw new AppError('INVALID_REQUEST', 'lostReason goes only with status lost.', {
      details: [{ path: 'lostReason', message: 'Only with status lost' }],
    });
  const lead = await findLead(deps.db, accountId, leadId);
  if (!lead) throw new AppError('NOT_FOUND', 'No such lead.');
  const from = lead.status as LeadStatus;
  if (!TRANSITIONS[from].includes(to)) {
    throw new AppError('INVALID_TRANSITION', `A lead cannot go from ${from} to ${to}.`);
  }
  const result = await linkedResult(deps.db, lead);
  const updated = await withTransaction(deps.db, async (tx) => {
    const row = await updateLeadStatus(tx, accountId, leadId, from, to, deps.clock.now(), lostReason ?? null);
    if (row) {
      const view = { ...toLeadView({ ...row, result }), previousStatus: from };
      await enqueueLeadEvent(tx, 'lead.updated', row, view, row.updatedAt);
      await recordAudit(tx, {
        accountId,
        actor,
        action: 'lead.status_changed',
        subject: leadId,
        data: { from, status: to, ...(lostReason ? { lostReason } : {}) },
        at: row.updatedAt,
      });
    }
    return row;
  });
  if (!updated) throw new AppError('INVALID_TRANSITION', 'The lead changed meanwhile; read it again.');
  return toLeadView({ ...updated, result });
}

/**
 * Takes a lead out of quarantine (it was held for spam signals): from now on it is an
 * ordinary lead, delivered to the firm's endpoints and inbox as `lead.created`. NOT_FOUND when the firm has no such quarantined lead.
 */
export async function releaseQuarantinedLead(
  deps: LicensingDeps,
  accountId: string,
  leadId: string,
  actor: string,
): Promise<LeadView> {
  // Released, it is an ordinary new lead: its webhooks and alert mail go now (same transaction).
  const row = await withTransaction(deps.db, async (tx) => {
    const released = await releaseLead(tx, accountId, leadId, deps.clock.now());
    if (!released) return undefined;
    const view = toLeadView({ ...released, result: await linkedResult(tx, released) });
    await enqueueLeadEvent(tx, 'lead.created', released, view, deps.clock.now());
    return view;
  });
  if (!row) throw new AppError('NOT_FOUND', 'No such quarantined lead.');
  await recordAudit(deps.db, {
    accountId,
    actor,
    action: 'lead.released',
    subject: leadId,
    at: deps.clock.now(),
  });
  return row;
}

/** `GET /leads/{id}`: one lead of the firm (test and quarantined too); another firm's is NOT_FOUND. */
export async function findLeadView(db: Db, accountId: string, leadId: string): Promise<LeadView> {
  const row = await findLead(db, accountId, leadId);
  if (!row) throw new AppError('NOT_FOUND', 'No such lead.');
  return toLeadView({ ...row, result: await linkedResult(db, row) });
}

/** The calculation a lead names (of the same firm), or null. */
async function linkedResult(
  db: Db,
  lead: Pick<LeadRow, 'accountId' | 'resultId'>,
): Promise<ResultSource | null> {
  return lead.resultId ? ((await findResult(db, lead.accountId, lead.resultId)) ?? null) : null;
}

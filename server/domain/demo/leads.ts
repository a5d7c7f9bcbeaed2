import { US_STATES } from '../../../calculators/fields.ts';
import { runCalculator } from '../../../calculators/index.ts';
import { HEIR_CLASSES } from '../../../calculators/inheritance-tax/tables.ts';
import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { insertDemoBatch, vacuumLeadTables } from '../../db/repos/demo-leads-repo.ts';
import { addFunnelCounts, type FunnelRow } from '../../db/repos/funnel-repo.ts';
import { listLicensesByAccount } from '../../db/repos/licenses-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { LicensingDeps } from '../deps.ts';
import { rateLead } from '../leads/lead-priority.ts';

const DAY_MS = 86_400_000;
const BATCH = 1_000;
const MAX_DEMO_LEADS = 1_000_000;

const FIRST = [
  'Zoë',
  'Łukasz',
  'María',
  'José',
  'Renée',
  'Søren',
  'Chloé',
  'Björn',
  'Ana',
  'Noël',
  'Inés',
  'François',
  'Jürgen',
  'Siobhán',
  'Dāvis',
  'Mei',
  'Olúwaseun',
  'Priya',
  'Ørjan',
  'Ángel',
  'Hélène',
  'Tomás',
  'Ilse',
  'Çağla',
  'James',
  'Patricia',
  'Robert',
  'Linda',
  'Michael',
  'Susan',
];
const LAST = [
  'Ødegård',
  'Nowak',
  'Núñez',
  'García',
  'Müller',
  'Brontë',
  'Dvořák',
  'O’Brien',
  'Søndergaard',
  'Łęcka',
  'Johansson',
  'Pérez',
  'Smith',
  'Nguyễn',
  'Kowalczyk',
  'Fernández',
  'Schäfer',
  'Okafor',
  'Haddad',
  'Rossi',
  'Williams',
  'Brown',
  'Jones',
  'Miller',
  'Davis',
];

/** Deterministic PRNG (mulberry32): the same seed gives the same demo data. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
/** Round figures on a coarse grid, so results repeat and the memo below saves most computing. */
const money = (rand: Rand, min: number, max: number, step: number) =>
  Math.round((min + rand() * (max - min)) / step) * step;

/** A calculator, a visitor's state and inputs that calculator accepts. */
function visit(rand: Rand): { calculator: string; state: string; inputs: Record<string, unknown> } {
  const roll = rand();
  if (roll < 0.5) {
    const state = pick(rand, US_STATES);
    return {
      calculator: 'estate-tax',
      state,
      inputs: { estateValue: money(rand, 500_000, 40_000_000, 250_000), state },
    };
  }
  if (roll < 0.65) {
    const state = pick(rand, Object.keys(HEIR_CLASSES));
    const heirClass = pick(rand, (HEIR_CLASSES as Record<string, string[]>)[state]!);
    return {
      calculator: 'inheritance-tax',
      state,
      inputs: { state, heirClass, bequest: money(rand, 20_000, 3_000_000, 10_000) },
    };
  }
  if (roll < 0.77)
    return {
      calculator: 'probate-fees',
      state: 'CA',
      inputs: { estateValue: money(rand, 100_000, 8_000_000, 25_000) },
    };
  if (roll < 0.87)
    return {
      calculator: 'executor-commission',
      state: 'NY',
      inputs: { estateValue: money(rand, 100_000, 10_000_000, 25_000) },
    };
  return {
    calculator: 'rmd',
    state: pick(rand, US_STATES),
    inputs: { balance: money(rand, 50_000, 4_000_000, 5_000), age: 73 + Math.floor(rand() * 25) },
  };
}

/**
 * The demo site's pages and how each converts: its share of leads, calculations per lead and views
 * per calculation (a blog post draws many readers and few leads; the contact page few and many).
 */
const PAGES = [
  { page: 'https://demo.svc.test/estate-planning', share: 0.35, calcsPerLead: 4, viewsPerCalc: 2.5 },
  { page: 'https://demo.svc.test/contact', share: 0.3, calcsPerLead: 3, viewsPerCalc: 2 },
  { page: 'https://demo.svc.test/probate-help', share: 0.2, calcsPerLead: 6, viewsPerCalc: 3 },
  {
    page: 'https://demo.svc.test/blog/2026-estate-tax-changes',
    share: 0.15,
    calcsPerLead: 12,
    viewsPerCalc: 6,
  },
] as const;

function pageOf(rand: Rand) {
  let roll = rand();
  for (const p of PAGES) {
    roll -= p.share;
    if (roll < 0) return p;
  }
  return PAGES[0];
}

/**
 * A new demo firm's last 60 days of widget traffic on its pages (views and calculations, counted
 * as the funnel counts them), so its Overview shows what the funnel is for. Its few sample leads are
 * counted by the caller.
 */
export async function seedDemoTraffic(
  deps: LicensingDeps,
  where: { accountId: string; licenseId: string },
  now: Date,
): Promise<void> {
  const rand = random(20_261_128);
  const rows: FunnelRow[] = [];
  for (let ago = 1; ago <= 60; ago++) {
    const day = new Date(now.getTime() - ago * DAY_MS).toISOString().slice(0, 10);
    for (const p of PAGES) {
      const calculations = Math.round((4 + 4 * rand()) * p.share * (12 / p.calcsPerLead));
      rows.push({
        ...where,
        calculator: p.page.includes('probate') ? 'probate-fees' : 'estate-tax',
        page: p.page,
        language: 'en',
        day,
        test: false,
        views: Math.round(calculations * p.viewsPerCalc * (0.8 + 0.4 * rand())) + 1,
        calculations,
        leads: 0,
        heldLeads: 0,
      });
    }
  }
  await addFunnelCounts(deps.db, rows);
}

/** Older leads have had time to move on: the chance of "converted" grows with age. */
function statusOf(rand: Rand, ageDays: number): 'new' | 'contacted' | 'converted' {
  const r = rand();
  if (ageDays < 3) return r < 0.85 ? 'new' : 'contacted';
  return r < 0.35 ? 'new' : r < 0.75 ? 'contacted' : 'converted';
}

export interface DemoLeadsInput {
  accountId: string;
  leads: number;
  days: number;
  seed?: number;
}

/**
 * `demo seed --account <id> --leads N [--days 365]`: N realistic leads, each with the calculation
 * it came from, spread over the last `days` days (every calculator and state, all three statuses,
 * names with accents; live data, not test mode). Inserted in batches of 1,000 rows, each batch in
 * one transaction, so 100,000 leads take seconds. Adds to what the account already has.
 */
export async function seedDemoLeads(deps: LicensingDeps, input: DemoLeadsInput) {
  if (!Number.isInteger(input.leads) || input.leads < 1 || input.leads > MAX_DEMO_LEADS)
    throw new AppError('INVALID_REQUEST', `--leads must be a whole number from 1 to ${MAX_DEMO_LEADS}.`);
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > 3650)
    throw new AppError('INVALID_REQUEST', '--days must be a whole number from 1 to 3650.');
  if (!(await findAccountById(deps.db, input.accountId)))
    throw new AppError('NOT_FOUND', `No account ${input.accountId}.`);
  const licenseId = (await listLicensesByAccount(deps.db, input.accountId))[0]?.id ?? null;
  const rand = random(input.seed ?? 20_261_123);
  const now = deps.clock.now();
  const started = performance.now();
  const memo = new Map<string, Computed>();
  for (let done = 0; done < input.leads; done += BATCH) {
    const size = Math.min(BATCH, input.leads - done);
    const { resultRows, leadRows, traffic } = batch(rand, memo, size, input, licenseId, now);
    await insertDemoBatch(deps.db, resultRows, leadRows);
    if (traffic.length > 0) await addFunnelCounts(deps.db, traffic);
  }
  await vacuumLeadTables(deps.db);
  return {
    accountId: input.accountId,
    leads: input.leads,
    days: input.days,
    ms: Math.round(performance.now() - started),
  };
}

type Computed = Extract<ReturnType<typeof runCalculator>, { ok: true }>;

/** One computation per distinct inputs and tax year (a calculation costs about half a millisecond). */
function computeOnce(
  memo: Map<string, Computed>,
  calculator: string,
  inputs: Record<string, unknown>,
  at: Date,
) {
  const key = `${calculator}|${at.getUTCFullYear()}|${JSON.stringify(inputs)}`;
  const known = memo.get(key);
  if (known) return known;
  const outcome = runCalculator(calculator, inputs, { now: at });
  if (!outcome.ok) throw new Error(`demo inputs refused by ${calculator}: ${outcome.issues[0]?.message}`);
  memo.set(key, outcome);
  return outcome;
}

function batch(
  rand: Rand,
  memo: Map<string, Computed>,
  size: number,
  input: DemoLeadsInput,
  licenseId: string | null,
  now: Date,
) {
  const resultRows: Record<string, unknown>[] = [];
  const leadRows: Record<string, unknown>[] = [];
  // The funnel around each lead: the calculations and views that came before it, on its page.
  const traffic = new Map<string, FunnelRow>();
  for (let i = 0; i < size; i++) {
    const createdAt = new Date(now.getTime() - Math.floor(rand() * input.days * DAY_MS));
    const { calculator, state, inputs } = visit(rand);
    const page = pageOf(rand);
    if (licenseId) {
      const day = createdAt.toISOString().slice(0, 10);
      const key = `${day}|${calculator}|${page.page}`;
      const row = traffic.get(key) ?? {
        accountId: input.accountId,
        licenseId,
        calculator,
        page: page.page,
        language: 'en',
        day,
        test: false,
        views: 0,
        calculations: 0,
        leads: 0,
        heldLeads: 0,
      };
      const calculations = Math.max(1, Math.round(page.calcsPerLead * (0.6 + 0.8 * rand())));
      row.calculations += calculations;
      row.views += Math.max(
        calculations,
        Math.round(calculations * page.viewsPerCalc * (0.7 + 0.6 * rand())),
      );
      row.leads += 1;
      traffic.set(key, row);
    }
    const outcome = computeOnce(memo, calculator, inputs, createdAt);
    const resultId = newId('res');
    resultRows.push({
      id: resultId,
      account_id: input.accountId,
      license_id: licenseId,
      calculator,
      state,
      inputs: outcome.inputs,
      outputs: outcome.result.outputs,
      line_items: outcome.result.lineItems,
      notes: outcome.result.notes,
      rule_set: outcome.result.ruleSet,
      disclaimer: outcome.result.disclaimer,
      origin_domain: 'demo.svc.test',
      page: page.page,
      created_at: createdAt.toISOString(),
    });
    // Rated as a live lead is (leads/lead-priority.ts), so the demo sorts by value and priority.
    const rating = rateLead({
      calculator,
      state,
      inputs: outcome.inputs,
      outputs: outcome.result.outputs,
      ruleSet: outcome.result.ruleSet as unknown as Record<string, unknown>,
    });
    const first = pick(rand, FIRST);
    const last = pick(rand, LAST);
    const local = `${first}.${last}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    leadRows.push({
      id: newId('lead'),
      account_id: input.accountId,
      license_id: licenseId,
      calculator,
      result_id: resultId,
      name: `${first} ${last}`,
      email: `${local}${Math.floor(rand() * 1000)}@example.com`,
      phone: rand() < 0.6 ? `+1 555 ${String(Math.floor(rand() * 10_000_000)).padStart(7, '0')}` : null,
      state,
      status: statusOf(rand, (now.getTime() - createdAt.getTime()) / DAY_MS),
      consent_text: 'I agree to be contacted about my estate plan by this firm.',
      page: page.page,
      consented_at: createdAt.toISOString(),
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
      value_amount: rating.valueAmount,
      priority_rank: rating.priorityRank,
      priority_reasons: rating.priorityReasons,
      priority_version: rating.priorityVersion,
    });
  }
  return { resultRows, leadRows, traffic: [...traffic.values()] };
}

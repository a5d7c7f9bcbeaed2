import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../db/engine/database.ts';
import { migrate, migrationFiles } from '../../db/engine/migrate.ts';
import { addFunnelCounts, type FunnelRow, funnelSums } from '../../db/repos/funnel-repo.ts';
import { createPostgresTestDatabase, createTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { funnelPage, OTHER_PAGES } from './pages.ts';
import { type FunnelPeriod, funnelReport } from './report.ts';

/**
 * Contacted, converted and lost are counters in funnel_daily kept by triggers on leads (migration
 * 0028), keyed by the page as `funnel_page()` masks it: held here to the same answers as counting
 * the leads themselves (how the report read them before), through every way a lead changes —
 * status, test, held, released, deleted — and under concurrent status changes on PostgreSQL.
 */

/** Pages as the API stores them (pageOf's shape), and a few it never stores. */
const PAGES = [
  null,
  '',
  'https://firm.example/',
  'https://firm.example',
  'http://firm.example:8080/estate-planning/new-york',
  'https://firm.example/blog/2026-estate-tax-changes',
  'https://firm.example/2026/03/01/probate',
  'https://firm.example/u/jane@x.com/88123456',
  'https://firm.example/u/jane%40x.com/a1b2c3d4e5f6g7h8i9',
  'https://firm.example/r/3f2b8c1e-9d4a-4b7e-8a1f-0c2d3e4f5a6b/x_Zk8Qp2Lm9Rt4Vw7Yb',
  'https://firm.example/r/deadbeef1234/deadbeef123/DEADBEEF-1234-ab',
  'https://firm.example/x/abcdefghijklmnop/abcdefghijklmno1/ABCDEFGHIJKLMNO1.pdf',
  'https://firm.example/x/a%2Fb@c/%31%32%33%34%35%36/%zz12345/%E2%82%AC/%C3%28/%00@x',
  'https://firm.example/x/%ED%A0%80/%F0%9F%98%80abcdefghijklmnop1/%4a%41%4E%45@X',
  'https://firm.example/x//y/@/a@/@b/a@b@c/12345/123456/1-2-3-4-5-6',
  'https://firm.example/x/caf%C3%A9/%E6%97%A5%E6%9C%AC/~user/a.b_c-d~e',
  'https://firm.example/estate?utm=1#calc',
  `https://firm.example/${'p'.repeat(2100)}`,
  'javascript:alert(1)',
  'ftp://firm.example/x',
  'not a url',
];

interface Lead {
  id: string;
  licenseId: string | null;
  calculator: string;
  page: string | null;
  language: string;
  createdAt: string;
  status: 'new' | 'contacted' | 'converted' | 'lost';
  test?: boolean;
  held?: boolean;
}

const ACCOUNT = 'acct_outcomes';

async function insertLeads(db: Database['db'], rows: Lead[]) {
  if (!rows.length) return;
  await db.execute(sql`insert into leads (id, account_id, license_id, calculator, name, email, status,
      consent_text, consented_at, created_at, updated_at, page, language, test, quarantined_at) values ${sql.join(
        rows.map(
          (l) =>
            sql`(${l.id}, ${ACCOUNT}, ${l.licenseId}, ${l.calculator}, 'Ada', 'ada@example.com', ${l.status},
            'I agree', ${l.createdAt}, ${l.createdAt}, ${l.createdAt}, ${l.page}, ${l.language},
            ${l.test ?? false}, ${l.held ? l.createdAt : null})`,
        ),
        sql`, `,
      )}`);
}

/**
 * The report's outcomes as they were read before the counters: every live lead created in the
 * period, grouped by calculator, page and status, its page masked in JavaScript and found under
 * "other pages" when the counters put it there.
 */
async function outcomesFromLeads(db: Database['db'], period: FunnelPeriod) {
  const until = new Date(Date.parse(`${period.to}T00:00:00Z`) + 86_400_000);
  const rows = (await db.execute(sql`select calculator, page, status, count(*)::int as n from leads
      where account_id = ${ACCOUNT} and test = false and quarantined_at is null
        and created_at >= ${`${period.from}T00:00:00Z`} and created_at < ${until.toISOString()}
      group by 1, 2, 3`)) as unknown as {
    rows: { calculator: string; page: string | null; status: string; n: number }[];
  };
  const sums = await funnelSums(db, ACCOUNT, period.from, period.to);
  const pages = new Set(
    sums.filter((s) => !s.test && s.views + s.calculations + s.leads + s.heldLeads > 0).map((s) => s.page),
  );
  const zero = () => ({ contacted: 0, converted: 0, lost: 0 });
  const totals = zero();
  const byCalculator: Record<string, ReturnType<typeof zero>> = {};
  const byPage: Record<string, ReturnType<typeof zero>> = {};
  for (const row of rows.rows) {
    if (row.status === 'new') continue;
    let page = funnelPage(row.page);
    if (page && !pages.has(page) && pages.has(OTHER_PAGES)) page = OTHER_PAGES;
    byCalculator[row.calculator] ??= zero();
    byPage[page] ??= zero();
    for (const s of [totals, byCalculator[row.calculator]!, byPage[page]!]) {
      s.contacted += row.n;
      if (row.status === 'converted') s.converted += row.n;
      if (row.status === 'lost') s.lost += row.n;
    }
  }
  return { totals, byCalculator, byPage };
}

/** The report's outcomes, the same shape (entries without outcomes left out). */
async function outcomesFromCounters(db: Database['db'], period: FunnelPeriod) {
  const report = await funnelReport({ db }, ACCOUNT, period);
  const pick = (s: { contacted: number; converted: number; lost: number }) => ({
    contacted: s.contacted,
    converted: s.converted,
    lost: s.lost,
  });
  const some = <T extends { contacted: number }>(list: T[]) => list.filter((s) => s.contacted > 0);
  return {
    totals: pick(report.totals),
    byCalculator: Object.fromEntries(some(report.byCalculator).map((c) => [c.calculator, pick(c)])),
    byPage: Object.fromEntries(some(report.byPage).map((p) => [p.page, pick(p)])),
  };
}

/** Each live lead counted by the in-memory counter as intake does (its page masked). */
function leadCounts(rows: Lead[], pageOf: (l: Lead) => string = (l) => funnelPage(l.page)): FunnelRow[] {
  const merged = new Map<string, FunnelRow>();
  for (const row of rows
    .filter((l) => !l.test)
    .map((l) => ({
      accountId: ACCOUNT,
      licenseId: l.licenseId ?? 'lic_none',
      calculator: l.calculator,
      page: pageOf(l),
      language: l.language,
      day: l.createdAt.slice(0, 10),
      test: false,
      views: 3,
      calculations: 2,
      leads: l.held ? 0 : 1,
      heldLeads: l.held ? 1 : 0,
    }))) {
    const key = [row.licenseId, row.day, row.calculator, row.page, row.language].join('\n');
    const had = merged.get(key);
    if (!had) merged.set(key, row);
    else for (const f of ['views', 'calculations', 'leads', 'heldLeads'] as const) had[f] += row[f];
  }
  return [...merged.values()];
}

async function counterRows(db: Database['db']) {
  const r = (await db.execute(
    sql`select count(*)::int as n from funnel_daily where contacted < 0 or converted < 0 or lost < 0`,
  )) as unknown as { rows: { n: number }[] };
  return r.rows[0]!.n;
}

const MARCH: FunnelPeriod = { from: '2026-03-01', to: '2026-03-31' };

function suite(open: () => Promise<{ database: Database; close(): Promise<void> }>) {
  let database: Database;
  let close: () => Promise<void>;
  const db = () => database.db;
  const status = (id: string, to: string) =>
    db().execute(sql`update leads set status = ${to}, updated_at = now() where id = ${id}`);

  beforeAll(async () => {
    ({ database, close } = await open());
    await database.db.execute(
      sql`insert into accounts (id, name, created_at) values (${ACCOUNT}, 'Outcomes LLP', now())`,
    );
  }, 60_000);
  afterAll(() => close());

  it('funnel_page() masks every page as funnelPage does', async () => {
    const r = (await db().execute(
      sql`select p.page, funnel_page(p.page) as counted from unnest(${sql.raw(
        `ARRAY[${PAGES.map((p) => (p === null ? 'NULL' : `'${p.replace(/'/g, "''")}'`)).join(', ')}]::text[]`,
      )}) with ordinality as p(page, i) order by i`,
    )) as unknown as { rows: { page: string | null; counted: string }[] };
    expect(r.rows.map((row) => row.counted)).toEqual(PAGES.map((p) => funnelPage(p)));
    // The corpus reaches every mask.
    expect(r.rows.map((row) => row.counted).join(' ')).toMatch(/:email.*:number.*:token/);
  });

  it('follows a lead new → contacted → converted → lost → deleted, by its creation day', async () => {
    const lead: Lead = {
      id: 'lead_life',
      licenseId: 'lic_a',
      calculator: 'rmd',
      page: 'https://firm.example/u/jane@x.com',
      language: 'en',
      createdAt: '2026-03-10T23:30:00Z',
      status: 'new',
    };
    await insertLeads(db(), [lead]);
    await addFunnelCounts(db(), leadCounts([lead]));
    const counts = async () => (await outcomesFromCounters(db(), MARCH)).totals;
    expect(await counts()).toEqual({ contacted: 0, converted: 0, lost: 0 });
    await status(lead.id, 'contacted');
    expect(await counts()).toEqual({ contacted: 1, converted: 0, lost: 0 });
    await status(lead.id, 'converted');
    expect(await counts()).toEqual({ contacted: 1, converted: 1, lost: 0 });
    await status(lead.id, 'lost');
    expect(await counts()).toEqual({ contacted: 1, converted: 0, lost: 1 });
    // Counted on the day it was created, on its masked page, in the same row as its lead.
    const row = (await db().execute(
      sql`select day::text as day, page, leads, contacted, converted, lost from funnel_daily where license_id = 'lic_a'`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(row.rows).toEqual([
      {
        day: '2026-03-10',
        page: 'https://firm.example/u/:email',
        leads: 1,
        contacted: 1,
        converted: 0,
        lost: 1,
      },
    ]);
    expect(await outcomesFromCounters(db(), { from: '2026-03-11', to: '2026-03-31' })).toMatchObject({
      totals: { contacted: 0 },
    });
    await db().execute(sql`delete from leads where id = ${lead.id}`);
    expect(await counts()).toEqual({ contacted: 0, converted: 0, lost: 0 });
    expect(await outcomesFromCounters(db(), MARCH)).toEqual(await outcomesFromLeads(db(), MARCH));
  });

  it('moves with test and held flags, a release, a bulk change and a purge, as counting the leads says', async () => {
    const calculators = ['rmd', 'estate-tax', 'probate-fees'];
    const pages = PAGES.slice(2, 16);
    const statuses = ['new', 'contacted', 'converted', 'lost'] as const;
    const leads: Lead[] = Array.from({ length: 240 }, (_, i) => ({
      id: `lead_mix_${i}`,
      licenseId: i % 7 === 0 ? null : `lic_${i % 3}`,
      calculator: calculators[i % 3]!,
      // License 2's pages are its own, so "other pages" holds some outcomes only it names.
      page: i % 11 === 0 ? null : i % 3 === 2 ? `https://two.example/p${i % 5}` : pages[i % pages.length]!,
      language: i % 5 === 0 ? 'es' : 'en',
      createdAt: new Date(Date.parse('2026-03-01T00:00:00Z') + i * 3.3 * 3_600_000).toISOString(),
      status: statuses[i % 4]!,
      test: i % 13 === 0,
      held: i % 17 === 0,
    }));
    await insertLeads(db(), leads);
    // The counter put the pages of a day past its cap under "other pages": here, license 2's.
    await addFunnelCounts(
      db(),
      leadCounts(leads, (l) => (l.licenseId === 'lic_2' && l.page ? OTHER_PAGES : funnelPage(l.page))),
    );
    const same = async () => {
      for (const period of [
        MARCH,
        { from: '2026-03-05', to: '2026-03-12' },
        { from: '2026-02-01', to: '2026-04-30' },
      ])
        expect(await outcomesFromCounters(db(), period)).toEqual(await outcomesFromLeads(db(), period));
      expect(await counterRows(db())).toBe(0);
    };
    await same();
    expect((await outcomesFromCounters(db(), MARCH)).byPage[OTHER_PAGES]?.contacted).toBeGreaterThan(0);

    await db().execute(
      sql`update leads set test = true where id in ('lead_mix_1', 'lead_mix_2', 'lead_mix_3')`,
    );
    await db().execute(sql`update leads set quarantined_at = now() where id in ('lead_mix_5', 'lead_mix_6')`);
    await db().execute(
      sql`update leads set quarantined_at = null where quarantined_at is not null and id like 'lead_mix_1%'`,
    );
    await same();
    // One statement changing many leads both ways (contacted → converted, converted → new).
    await db().execute(sql`update leads set status = case status when 'contacted' then 'converted'
        when 'converted' then 'new' else status end where id like 'lead_mix_%'`);
    await same();
    // A retention purge: the old leads not converted go.
    await db().execute(
      sql`delete from leads where id like 'lead_mix_%' and status <> 'converted' and created_at < '2026-03-20'`,
    );
    await same();
    // Priority rated again, nothing the funnel counts moved: no counter row changes.
    const all = async () =>
      (
        (await db().execute(sql`select * from funnel_daily order by 1, 2, 3, 4, 5, 6, 7`)) as unknown as {
          rows: unknown[];
        }
      ).rows;
    const before = await all();
    await db().execute(sql`update leads set priority_rank = 2 where id like 'lead_mix_%'`);
    expect(await all()).toEqual(before);
    await db().execute(sql`delete from leads where id like 'lead_mix_%'`);
    expect(await outcomesFromCounters(db(), MARCH)).toMatchObject({
      totals: { contacted: 0, converted: 0, lost: 0 },
    });
  });

  it('stays exact under concurrent status changes', async () => {
    const leads: Lead[] = Array.from({ length: 30 }, (_, i) => ({
      id: `lead_race_${i}`,
      licenseId: 'lic_race',
      calculator: i % 2 ? 'rmd' : 'estate-tax',
      page: `https://firm.example/p${i % 3}`,
      language: 'en',
      createdAt: `2026-03-${String(20 + (i % 4)).padStart(2, '0')}T12:00:00Z`,
      status: 'new',
    }));
    await insertLeads(db(), leads);
    await addFunnelCounts(db(), leadCounts(leads));
    const statuses = ['new', 'contacted', 'converted', 'lost'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor(seed / 65_536);
    };
    // 600 changes, several at a time on the pool (PostgreSQL: 10 connections), many on the same lead.
    const changes = Array.from({ length: 600 }, () => {
      const id = `lead_race_${next() % leads.length}`;
      const kind = next() % 10;
      if (kind === 0) return () => db().execute(sql`update leads set test = not test where id = ${id}`);
      if (kind === 1)
        return () =>
          db().execute(
            sql`update leads set quarantined_at = case when quarantined_at is null then now() end where id = ${id}`,
          );
      const to = statuses[next() % 4]!;
      return () => status(id, to);
    });
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let i = worker; i < changes.length; i += 8) await changes[i]!();
      }),
    );
    await db().execute(sql`delete from leads where id in ('lead_race_0', 'lead_race_1')`);
    expect(await outcomesFromCounters(db(), MARCH)).toEqual(await outcomesFromLeads(db(), MARCH));
    // The lead statistics' counters (0004, one ordered upsert since 0028) too, and no deadlock.
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await db().execute(query)) as unknown as { rows: unknown[] }).rows;
    expect(
      await rows(sql`select day::text as day, calculator, status, sum(leads)::int as n from lead_daily_counts
        where account_id = ${ACCOUNT} group by 1, 2, 3 having sum(leads) <> 0 order by 1, 2, 3`),
    ).toEqual(
      await rows(sql`select (created_at at time zone 'UTC')::date::text as day, calculator, status, count(*)::int as n
        from leads where account_id = ${ACCOUNT} and test = false and quarantined_at is null
        group by 1, 2, 3 order by 1, 2, 3`),
    );
    expect((await outcomesFromCounters(db(), MARCH)).totals.contacted).toBeGreaterThan(0);
    expect(await counterRows(db())).toBe(0);
  }, 60_000);
}

describe('funnel outcomes kept by triggers, on PGlite', () => {
  suite(async () => {
    const database = await createTestDatabase();
    return { database, close: () => database.close() };
  });
});

needs('postgres').describe('funnel outcomes kept by triggers, on PostgreSQL (PostgreSQL)', () => {
  suite(async () => {
    const { database, drop } = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    return { database, close: drop };
  });
});

describe('migration 0028 (outcomes counted for the leads already there)', () => {
  it('backfills every live lead past new, on its masked page and creation day', async () => {
    const database = await createDatabase({ dataDir: 'memory://' });
    try {
      const client = (database.db as unknown as { $client: PGlite }).$client;
      await client.exec(
        'create table schema_migrations (name text primary key, applied_at timestamptz not null)',
      );
      for (const file of migrationFiles().filter((f) => f.name < '0028')) {
        await client.exec(file.sql);
        await client.query('insert into schema_migrations values ($1, now())', [file.name]);
      }
      await database.db.execute(
        sql`insert into accounts (id, name, created_at) values (${ACCOUNT}, 'Outcomes LLP', now())`,
      );
      const statuses = ['new', 'contacted', 'converted', 'lost'] as const;
      const leads: Lead[] = Array.from({ length: 60 }, (_, i) => ({
        id: `lead_old_${i}`,
        licenseId: i % 9 === 0 ? null : `lic_${i % 2}`,
        calculator: i % 2 ? 'rmd' : 'estate-tax',
        page: i % 8 === 0 ? null : PAGES[2 + (i % 14)]!,
        language: 'en',
        createdAt: new Date(Date.parse('2026-03-02T00:00:00Z') + i * 9 * 3_600_000).toISOString(),
        status: statuses[i % 4]!,
        test: i % 10 === 0,
        held: i % 15 === 0,
      }));
      await insertLeads(database.db, leads);
      const counts = leadCounts(leads);
      await database.db.execute(sql`insert into funnel_daily (account_id, license_id, calculator, page, language,
          day, test, views, calculations, leads, held_leads) values ${sql.join(
            counts.map(
              (r) =>
                sql`(${r.accountId}, ${r.licenseId}, ${r.calculator}, ${r.page}, ${r.language}, ${r.day}, false, ${r.views}, ${r.calculations}, ${r.leads}, ${r.heldLeads})`,
            ),
            sql`, `,
          )}`);
      expect(await migrate(database)).toContain('0028_funnel_outcomes.sql');
      const counted = await outcomesFromCounters(database.db, MARCH);
      expect(counted).toEqual(await outcomesFromLeads(database.db, MARCH));
      expect(counted.totals.converted).toBeGreaterThan(0);
      expect(counted.totals.lost).toBeGreaterThan(0);
      // And kept from then on.
      await database.db.execute(sql`update leads set status = 'new' where id = 'lead_old_1'`);
      expect(await outcomesFromCounters(database.db, MARCH)).toEqual(
        await outcomesFromLeads(database.db, MARCH),
      );
    } finally {
      await database.close();
    }
  }, 60_000);
});

needs('postgres').describe('funnel_page() in a parallel query (PostgreSQL)', () => {
  it('masks pages with a % where a query could run in parallel (its EXCEPTION block makes it parallel unsafe)', async () => {
    const { database, drop } = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    try {
      const db = database.db;
      await db.execute(sql`create table parallel_pages as
        select 'https://firm.example/p/%41' || i as page from generate_series(1, 20000) as i`);
      await db.execute(sql`analyze parallel_pages`);
      const counted = await db.transaction(async (tx) => {
        // Parallel plans made cheap: the planner picks one wherever every function in the query allows.
        await tx.execute(sql`set local parallel_setup_cost = 0`);
        await tx.execute(sql`set local parallel_tuple_cost = 0`);
        await tx.execute(sql`set local min_parallel_table_scan_size = 0`);
        await tx.execute(sql`set local max_parallel_workers_per_gather = 2`);
        const plan = (await tx.execute(
          sql`explain select count(*) from parallel_pages where page like '%A1%'`,
        )) as unknown as { rows: Record<string, string>[] };
        expect(plan.rows.map((r) => Object.values(r)[0]).join('\n')).toMatch(/Gather/);
        const r = (await tx.execute(
          sql`select count(distinct funnel_page(page))::int as n from parallel_pages`,
        )) as unknown as { rows: { n: number }[] };
        return r.rows[0]!.n;
      });
      expect(counted).toBe(20000);
    } finally {
      await drop();
    }
  }, 60_000);
});

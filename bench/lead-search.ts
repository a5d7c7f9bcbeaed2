import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../server/db/engine/database.ts';
import { migrate } from '../server/db/engine/migrate.ts';
import { accounts } from '../server/db/engine/schema.ts';
import { seedDemoLeads } from '../server/domain/demo/leads.ts';
import type { LicensingDeps } from '../server/domain/deps.ts';
import { findLeads, type LeadFilterInput } from '../server/domain/leads/lead-query.ts';
import { systemClock } from '../server/lib/clock.ts';

/**
 * `npm run bench -- lead-search`: the lead list's query (the one module behind REST, MCP and the
 * portal: a page of 50 and the count capped at 1,000) timed in-process, with no HTTP around it,
 * at 100,000 leads of one firm, on PGlite (the embedded default) and, with DATABASE_URL set, on
 * PostgreSQL. Goal: p95 under 50 ms. `--plans` prints EXPLAIN ANALYZE of the page and the count.
 */
export const LEAD_SEARCH_CASES: [string, LeadFilterInput][] = [
  ['newest first', {}],
  ['sort=value', { sort: 'value' }],
  ['sort=priority', { sort: 'priority' }],
  ['q=a (common prefix)', { q: 'a' }],
  ['q=m sort=value', { q: 'm', sort: 'value' }],
  ['q=mar (name prefix)', { q: 'mar' }],
  ['q=maria.g (e-mail prefix)', { q: 'maria.g' }],
  ['q=zz (no match)', { q: 'zz' }],
  ['month (this month)', { month: new Date().toISOString().slice(0, 7) }],
  ['month sort=priority', { month: new Date().toISOString().slice(0, 7), sort: 'priority' }],
  ['status=contacted sort=value', { status: 'contacted', sort: 'value' }],
];

export interface LeadSearchFigure {
  backend: string;
  leads: number;
  label: string;
  total: string;
  p50Ms: number;
  p95Ms: number;
  /** This process's CPU time per call (PGlite runs in it): what a loaded machine inflates least. */
  cpuP50Ms: number;
  cpuP95Ms: number;
}

const quantile = (sorted: number[], q: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;

async function withFirm(database: Database, size: number): Promise<string> {
  const accountId = `acct_bench_${Date.now().toString(36)}`;
  await database.db.insert(accounts).values({ id: accountId, name: 'Bench firm', createdAt: new Date() });
  const deps = { db: database.db, clock: systemClock } as unknown as LicensingDeps;
  await seedDemoLeads(deps, { accountId, leads: size, days: 365 });
  return accountId;
}

export async function runLeadSearchBench(
  options: { size?: number; runs?: number; plans?: boolean } = {},
): Promise<{ figures: LeadSearchFigure[]; plans: string[] }> {
  const size = options.size ?? 100_000;
  const runs = options.runs ?? 60;
  const backends: [string, () => Promise<Database>, () => void][] = [];
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-search-'));
  backends.push(['PGlite', () => createDatabase({ dataDir: join(dir, 'pglite') }), () => {}]);
  if (process.env.DATABASE_URL) {
    const name = `svc_bench_search_${process.pid}`;
    const admin = () => createDatabase({ databaseUrl: process.env.DATABASE_URL });
    backends.push([
      'PostgreSQL',
      async () => {
        const a = await admin();
        await a.db.execute(sql.raw(`create database ${name}`));
        await a.close();
        const url = new URL(process.env.DATABASE_URL!);
        url.pathname = `/${name}`;
        return createDatabase({ databaseUrl: url.href });
      },
      async () => {
        const a = await admin();
        await a.db.execute(sql.raw(`drop database if exists ${name}`));
        await a.close();
      },
    ]);
  }
  const figures: LeadSearchFigure[] = [];
  const plans: string[] = [];
  try {
    for (const [backend, open, drop] of backends) {
      const database = await open();
      try {
        await migrate(database);
        const accountId = await withFirm(database, size);
        const deps = { db: database.db, clock: systemClock, cursorKey: Buffer.alloc(32, 7) };
        for (const [label, input] of LEAD_SEARCH_CASES) {
          const call = () => findLeads(deps, accountId, input, { limit: 50 });
          for (let i = 0; i < 5; i++) await call();
          const times: number[] = [];
          const cpu: number[] = [];
          let total = '';
          for (let i = 0; i < runs; i++) {
            const t = performance.now();
            const c = process.cpuUsage();
            const page = await call();
            const used = process.cpuUsage(c);
            cpu.push((used.user + used.system) / 1000);
            times.push(performance.now() - t);
            total = `${page.totalMatching}${page.totalMatchingCapped ? '+' : ''}`;
          }
          times.sort((a, b) => a - b);
          cpu.sort((a, b) => a - b);
          figures.push({
            backend,
            leads: size,
            label,
            total,
            p50Ms: quantile(times, 0.5),
            p95Ms: quantile(times, 0.95),
            cpuP50Ms: quantile(cpu, 0.5),
            cpuP95Ms: quantile(cpu, 0.95),
          });
        }
        if (options.plans) plans.push(...(await planOf(database, accountId, backend)));
      } finally {
        await database.close();
        await drop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { figures, plans };
}

/** EXPLAIN ANALYZE of a common-prefix search's page and capped count, as the repository writes them. */
async function planOf(database: Database, accountId: string, backend: string): Promise<string[]> {
  const out: string[] = [];
  const statements: string[] = [];
  const live = `test = false and quarantined_at is null`;
  const now = new Date().toISOString();
  statements.push(
    `select count(*) from (select 1 from leads where account_id = '${accountId}' and created_at <= '${now}' and ${live}
       and lower(name) like 'a%' limit 1001) m`,
    `select count(*) from (select 1 from leads where account_id = '${accountId}' and created_at <= '${now}' and ${live}
       and lower(email) like 'a%' and lower(name) not like 'a%' limit 1001) m`,
    `select id from leads where account_id = '${accountId}' and created_at <= '${now}' and ${live}
       and (lower(name) like 'a%' or lower(email) like 'a%') order by created_at desc, id desc limit 51`,
    `select count(*) from (select 1 from leads where account_id = '${accountId}' and created_at <= '${now}' and ${live}
       order by created_at desc, id desc limit 1001) m`,
  );
  for (const s of statements) {
    const result = (await database.db.execute(
      sql.raw(`explain (analyze, costs off, timing on, summary on) ${s}`),
    )) as unknown as { rows: Record<string, string>[] };
    out.push(
      `-- ${backend}: ${s.replace(/\s+/g, ' ').slice(0, 160)}\n${result.rows.map((r) => Object.values(r)[0]).join('\n')}`,
    );
  }
  return out;
}

export function printLeadSearchFigures(figures: LeadSearchFigure[]) {
  for (const f of figures)
    console.log(
      `lead search ${f.backend.padEnd(10)} ${String(f.leads).padStart(7)} leads  ${f.label.padEnd(30)} total ${f.total.padStart(5)}  p50 ${String(f.p50Ms).padStart(6)} ms  p95 ${String(f.p95Ms).padStart(6)} ms  CPU p50 ${String(f.cpuP50Ms).padStart(6)} ms  p95 ${String(f.cpuP95Ms).padStart(6)} ms`,
    );
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../server/db/engine/database.ts';
import { startStack } from '../server/test-support/stack.ts';

export interface McpFigure {
  leads: number;
  tool: string;
  runs: number;
  p50Ms: number;
  p95Ms: number;
}

const CASES: [string, string, Record<string, unknown>][] = [
  ['get_leads {}', 'get_leads', {}],
  ['get_leads {state: NY, status: new}', 'get_leads', { state: 'NY', status: 'new' }],
  ['get_leads page 3 (cursor)', 'get_leads', { limit: 25 }],
  ['get_calculator_results {}', 'get_calculator_results', {}],
  ['get_directory_stats {}', 'get_directory_stats', {}],
  ['get_directory_stats {windowDays: 365}', 'get_directory_stats', { windowDays: 365 }],
];

/**
 * Issue 40: the REST lead list's search, sorts, month and sorted cursors (`page 3` follows two
 * pages' `nextCursor`, so the keyset carries the sort key). Goal: p95 under 50 ms at 100,000 leads.
 */
const REST_CASES: [string, string][] = [
  ['REST leads sort=value', 'sort=value'],
  ['REST leads sort=priority', 'sort=priority'],
  ['REST leads sort=value page 3 (cursor)', 'sort=value'],
  ['REST leads sort=priority page 3 (cursor)', 'sort=priority'],
  ['REST leads q=a (common prefix)', 'q=a'],
  ['REST leads q=mar (name prefix)', 'q=mar'],
  ['REST leads q=maria.g (e-mail prefix)', 'q=maria.g'],
  ['REST leads q=m sort=value', 'q=m&sort=value'],
  ['REST leads month (this month)', `month=${new Date().toISOString().slice(0, 7)}`],
];

const quantile = (sorted: number[], q: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;

/**
 * `npm run bench -- mcp`: each tool over loopback HTTP (one call at a time, as a model makes them)
 * on the embedded database, at 10,000 and at 100,000 leads of one firm.
 */
export async function runMcpBench(
  sizes: number[] = [10_000, 100_000],
  runs = 60,
): Promise<{ figures: McpFigure[]; plans: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-mcp-'));
  const stack = await startStack({ DATA_DIR: dataDir, NODE_ENV: 'production', RATE_LIMIT_SCALE: '1000' });
  const figures: McpFigure[] = [];
  const accountId = stack.demo.accountId!;
  let id = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await fetch(`${stack.apiUrl}/v1/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.demo.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
    });
    const body = (await res.json()) as {
      result?: { isError?: boolean; structuredContent: Record<string, unknown> };
    };
    if (res.status !== 200 || !body.result || body.result.isError)
      throw new Error(`${name}: ${JSON.stringify(body)}`);
    return body.result.structuredContent;
  };
  const rest = async (path: string) => {
    const res = await fetch(`${stack.apiUrl}${path}`, {
      headers: { authorization: `Bearer ${stack.demo.apiKey}` },
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  try {
    let seeded = 3; // the demo firm's sample leads
    for (const size of sizes) {
      const res = await fetch(`${stack.apiUrl}/admin/v1/demo/seed`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accountId, leads: size - seeded, days: 365 }),
      });
      if (res.status !== 200) throw new Error(`demo seed: ${res.status} ${await res.text()}`);
      seeded = size;
      const page2 = (await call('get_leads', { limit: 25 })).nextCursor as string;
      const page3 = (await call('get_leads', { limit: 25, cursor: page2 })).nextCursor as string;
      for (const [label, query] of REST_CASES) {
        let path = `/v1/api/leads?limit=50&${query}`;
        if (label.includes('cursor'))
          for (let p = 0; p < 2; p++) {
            const cursor = (await rest(path)).nextCursor as string;
            path = `/v1/api/leads?limit=50&${query}&cursor=${encodeURIComponent(cursor)}`;
          }
        figures.push({ leads: size, tool: label, runs, ...(await timed(runs, () => rest(path))) });
      }
      for (const [label, tool, args] of CASES) {
        const withCursor = label.includes('cursor') ? { ...args, cursor: page3 } : args;
        for (let i = 0; i < 5; i++) await call(tool, withCursor); // warm-up
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          await call(tool, withCursor);
          times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        figures.push({
          leads: size,
          tool: label,
          runs,
          p50Ms: quantile(times, 0.5),
          p95Ms: quantile(times, 0.95),
        });
      }
    }
  } finally {
    await stack.close();
  }
  const plans = await explainPlans(dataDir, accountId);
  rmSync(dataDir, { recursive: true, force: true });
  return { figures, plans };
}

/** p50 and p95 of `runs` sequential calls after 5 warm-up calls. */
async function timed(runs: number, call: () => Promise<unknown>): Promise<{ p50Ms: number; p95Ms: number }> {
  for (let i = 0; i < 5; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: quantile(times, 0.5), p95Ms: quantile(times, 0.95) };
}

/** The query plans behind the tools, on the benchmark's own database (100,000 leads). */
async function explainPlans(dataDir: string, accountId: string): Promise<string[]> {
  const database = await createDatabase({ dataDir: join(dataDir, 'pglite') });
  try {
    return await explainOn(database, accountId);
  } finally {
    await database.close();
  }
}

/** EXPLAIN ANALYZE of the tools' queries for one account. */
export async function explainOn(database: Database, accountId: string): Promise<string[]> {
  const live = sql`test = false and quarantined_at is null`;
  const now = new Date();
  const month = new Date(now.getTime() - 30 * 86_400_000);
  const nextMidnight = new Date(`${month.toISOString().slice(0, 10)}T00:00:00Z`);
  nextMidnight.setUTCDate(nextMidnight.getUTCDate() + 1);
  const queries: [string, ReturnType<typeof sql>][] = [
    [
      'get_leads page (newest 26, live)',
      sql`select id from leads where account_id = ${accountId} and created_at <= ${now} and ${live}
        order by created_at desc, id desc limit 26`,
    ],
    [
      'get_leads keyset page (after a cursor, state NY)',
      sql`select id from leads where account_id = ${accountId} and created_at <= ${now} and ${live} and state = 'NY'
        and (created_at, id) < (${month}, 'lead_z') order by created_at desc, id desc limit 26`,
    ],
    [
      'totalMatching (capped count)',
      sql`select count(*) from (select 1 from leads where account_id = ${accountId} and created_at <= ${now} and ${live}
        order by created_at desc, id desc limit 1001) m`,
    ],
    [
      'get_directory_stats window, whole days (daily counters)',
      sql`select status, calculator, sum(leads) from lead_daily_counts where account_id = ${accountId}
        and day > ${month.toISOString().slice(0, 10)}::date and day <= ${now.toISOString().slice(0, 10)}::date
        group by status, calculator`,
    ],
    [
      'get_directory_stats window, first partial day (leads)',
      sql`select status, calculator, count(*) from leads where account_id = ${accountId} and ${live}
        and created_at >= ${month} and created_at < ${nextMidnight} group by status, calculator`,
    ],
    [
      'get_directory_stats total (daily counters)',
      sql`select coalesce(sum(leads), 0) from lead_daily_counts where account_id = ${accountId}`,
    ],
    [
      'get_directory_stats funnel, 365 days (funnel_daily: traffic and outcomes, migration 0028)',
      sql`select calculator, page, test, sum(views), sum(calculations), sum(leads), sum(held_leads),
        sum(contacted), sum(converted), sum(lost) from funnel_daily where account_id = ${accountId}
        and day >= ${new Date(now.getTime() - 364 * 86_400_000).toISOString().slice(0, 10)}::date
        and day <= ${now.toISOString().slice(0, 10)}::date group by calculator, page, test`,
    ],
  ];
  const out: string[] = [];
  for (const [label, query] of queries) {
    const result = (await database.db.execute(
      sql`explain (analyze, costs off, timing on, summary on) ${query}`,
    )) as unknown as { rows: Record<string, string>[] };
    out.push(`-- ${label}\n${result.rows.map((r) => Object.values(r)[0]).join('\n')}`);
  }
  return out;
}

export function printMcpFigures(figures: McpFigure[]) {
  for (const f of figures)
    console.log(
      `MCP ${String(f.leads).padStart(7)} leads  ${f.tool.padEnd(40)} p50 ${String(f.p50Ms).padStart(6)} ms  p95 ${String(f.p95Ms).padStart(6)} ms  (×${f.runs})`,
    );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { figures, plans } = await runMcpBench();
  printMcpFigures(figures);
  if (process.argv.includes('--plans')) for (const p of plans) console.log(`\n${p}`);
  process.exit(0);
}

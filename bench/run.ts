import { join } from 'node:path';
import { repoRoot } from '../server/infra/repo-root.ts';
import { type Backend, type HttpBenchResult, printHttpBench, runHttpBench, writeHttpBench } from './http.ts';
import { formatLayout, runLayoutBench } from './layout.ts';
import { printLeadSearchFigures, runLeadSearchBench } from './lead-search.ts';
import { printMcpFigures, runMcpBench } from './mcp.ts';
import { printNoisy, runNoisyBench } from './noisy.ts';
import { runPdfBench } from './pdf.ts';
import { printPowFigures, runPowBench } from './proof-of-work.ts';
import { READY_BUDGET_MS, runReadyBench } from './ready.ts';
import { embedSizes } from './size.ts';
import { runWebhookBench } from './webhooks.ts';

/**
 * `npm run bench`: every figure the issues name, printed. Loopback only; bounded in count.
 * `npm run bench -- layout` runs only the host page's layout shift at 375 and 1280 px and time to svc-ready.
 * `npm run bench -- mcp` runs only the MCP tools (add `--plans` for the query plans).
 * `npm run bench -- lead-search` times the lead list's query in-process at 100,000 leads on PGlite
 * (and PostgreSQL when DATABASE_URL is set), wall and CPU time (add `--plans` for the query plans).
 * `npm run bench -- pow` prints only the proof-of-work costs (visitor against attacker).
 * `npm run bench -- http` runs only the HTTP throughput table (add `--profile` for a CPU profile of
 * each path, written under bench/results/profiles/, and its top self-time entries; `--path=calc` and
 * `--backend=pglite` narrow the run to the paths and the backend named: pglite, postgresql+redis,
 * postgresql+redis-x2). Beside the status and embed-session paths it measures their floors, a minimal
 * `node:http` server doing only the work no implementation can skip (bench/floor-server.cjs).
 * `npm run bench -- noisy` runs only the noisy-neighbour delivery scenario and its quiet baseline:
 * firm B's webhook and alert-mail latency while firm A's endpoints never answer.
 * `BENCH_NODE_OPTIONS` is passed to the servers as NODE_OPTIONS (to compare V8 settings).
 * Exits non-zero when any HTTP answer was not 2xx.
 */
const only = process.argv.slice(2).find((a) => !a.startsWith('-'));

async function http(): Promise<HttpBenchResult> {
  const profile = process.argv.includes('--profile');
  const option = (name: string) =>
    process.argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
  const backends = option('backend');
  const result = await runHttpBench({
    paths: option('path'),
    // `--backend=postgresql+redis-x2` names the two-worker run without a shell-quoted `×`.
    ...(backends.length ? { backends: backends.map((b) => b.replace(/[- ]?[x×]2$/, ' ×2') as Backend) } : {}),
    ...(profile ? { profileDir: join(repoRoot(), 'bench', 'results', 'profiles', String(Date.now())) } : {}),
  });
  printHttpBench(result);
  console.log(`figures written to ${writeHttpBench(result)}`);
  return result;
}

if (only === 'http') process.exit((await http()).failures.length ? 1 : 0);

if (only === 'noisy') {
  printNoisy(await runNoisyBench('noisy'));
  printNoisy(await runNoisyBench('quiet', 15));
  process.exit(0);
}

if (only === 'layout') {
  console.log(formatLayout(await runLayoutBench()));
  process.exit(0);
}

if (only === 'pow') {
  printPowFigures(runPowBench());
  process.exit(0);
}

if (only === 'mcp') {
  const { figures, plans } = await runMcpBench();
  printMcpFigures(figures);
  if (process.argv.includes('--plans')) for (const p of plans) console.log(`\n${p}`);
  process.exit(0);
}

if (only === 'lead-search') {
  const { figures, plans } = await runLeadSearchBench({ plans: process.argv.includes('--plans') });
  printLeadSearchFigures(figures);
  for (const p of plans) console.log(`\n${p}`);
  process.exit(0);
}

printPowFigures(runPowBench());
const pdf = await runPdfBench();
console.log(
  `PDF report (typical, ×${pdf.runs}): mean ${pdf.meanMs} ms, p50 ${pdf.p50Ms} ms, p95 ${pdf.p95Ms} ms, max ${pdf.maxMs} ms, ${pdf.bytes} B — budget 100 ms`,
);
const httpResult = await http();
printMcpFigures((await runMcpBench()).figures);
printLeadSearchFigures((await runLeadSearchBench()).figures);
const hooks = await runWebhookBench();
console.log(
  `Webhooks (${hooks.events} events, one worker, loopback receiver): outbox write ${hooks.enqueueMs} ms/event, ${hooks.perSecond} deliveries/s`,
);
printNoisy(await runNoisyBench('noisy'));
printNoisy(await runNoisyBench('quiet', 15));
const ready = await runReadyBench();
console.log(
  `time to svc-ready (tag inserted → session held, ×${ready.runs}): median ${ready.medianMs} ms, min ${ready.minMs} ms, max ${ready.maxMs} ms — target ${READY_BUDGET_MS} ms`,
);
console.log(formatLayout(await runLayoutBench()));
for (const r of embedSizes())
  console.log(`${r.file.padEnd(32)} raw ${r.raw} B, gzip ${r.gzip} B, brotli ${r.brotli} B`);
process.exit(httpResult.failures.length ? 1 : 0);

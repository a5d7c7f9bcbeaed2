import { runHttpBench } from './http.ts';
import { printMcpFigures, runMcpBench } from './mcp.ts';
import { runPdfBench } from './pdf.ts';
import { READY_BUDGET_MS, runReadyBench } from './ready.ts';
import { embedSizes } from './size.ts';
import { runWebhookBench } from './webhooks.ts';

/**
 * `npm run bench`: every figure the issues name, printed. Loopback only; bounded in count.
 * `npm run bench -- mcp` runs only the MCP tools (add `--plans` for the query plans).
 */
const only = process.argv.slice(2).find((a) => !a.startsWith('-'));

if (only === 'mcp') {
  const { figures, plans } = await runMcpBench();
  printMcpFigures(figures);
  if (process.argv.includes('--plans')) for (const p of plans) console.log(`\n${p}`);
  process.exit(0);
}

const pdf = await runPdfBench();
console.log(
  `PDF report (typical, ×${pdf.runs}): mean ${pdf.meanMs} ms, p50 ${pdf.p50Ms} ms, p95 ${pdf.p95Ms} ms, max ${pdf.maxMs} ms, ${pdf.bytes} B — budget 100 ms`,
);
for (const f of await runHttpBench()) {
  console.log(
    `${f.name.padEnd(40)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50Ms} ms  p95 ${f.p95Ms} ms  p99 ${f.p99Ms} ms`,
  );
}
printMcpFigures((await runMcpBench()).figures);
const hooks = await runWebhookBench();
console.log(
  `Webhooks (${hooks.events} events, one worker, loopback receiver): outbox write ${hooks.enqueueMs} ms/event, ${hooks.perSecond} deliveries/s`,
);
const ready = await runReadyBench();
console.log(
  `time to svc-ready (tag inserted → session held, ×${ready.runs}): median ${ready.medianMs} ms, min ${ready.minMs} ms, max ${ready.maxMs} ms — target ${READY_BUDGET_MS} ms`,
);
for (const r of embedSizes())
  console.log(`${r.file.padEnd(32)} raw ${r.raw} B, gzip ${r.gzip} B, brotli ${r.brotli} B`);
process.exit(0);

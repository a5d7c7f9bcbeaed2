import { runHttpBench } from './http.ts';
import { runPdfBench } from './pdf.ts';
import { READY_BUDGET_MS, runReadyBench } from './ready.ts';
import { embedSizes } from './size.ts';

/** `npm run bench`: every figure the issues name, printed. Loopback only; bounded in count. */
const pdf = await runPdfBench();
console.log(
  `PDF report (typical, ×${pdf.runs}): mean ${pdf.meanMs} ms, p50 ${pdf.p50Ms} ms, p95 ${pdf.p95Ms} ms, max ${pdf.maxMs} ms, ${pdf.bytes} B — budget 100 ms`,
);
for (const f of await runHttpBench()) {
  console.log(
    `${f.name.padEnd(40)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50Ms} ms  p95 ${f.p95Ms} ms  p99 ${f.p99Ms} ms`,
  );
}
const ready = await runReadyBench();
console.log(
  `time to svc-ready (tag inserted → session held, ×${ready.runs}): median ${ready.medianMs} ms, min ${ready.minMs} ms, max ${ready.maxMs} ms — target ${READY_BUDGET_MS} ms`,
);
for (const r of embedSizes())
  console.log(`${r.file.padEnd(32)} raw ${r.raw} B, gzip ${r.gzip} B, brotli ${r.brotli} B`);
process.exit(0);

import { fileURLToPath } from 'node:url';
import { renderReport } from '../server/pdf/render-report.ts';
import { typicalReport } from './fixtures.ts';

export interface PdfFigures {
  runs: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  bytes: number;
}

/** Renders the typical report `runs` times after a warm-up; budget: < 100 ms each. */
export async function runPdfBench(runs = 200): Promise<PdfFigures> {
  const input = typicalReport();
  for (let i = 0; i < 10; i++) await renderReport(input);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    bytes = (await renderReport(input)).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    runs,
    meanMs: round(times.reduce((a, b) => a + b, 0) / runs),
    p50Ms: round(at(0.5)),
    p95Ms: round(at(0.95)),
    maxMs: round(times.at(-1)!),
    bytes,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await runPdfBench();
  console.log(
    `pdf: typical report ×${figures.runs}: mean ${figures.meanMs} ms, p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms, max ${figures.maxMs} ms, ${figures.bytes} bytes (budget 100 ms)`,
  );
}

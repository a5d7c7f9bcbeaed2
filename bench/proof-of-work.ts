import { createHash } from 'node:crypto';
import { DIFFICULTY, maxNumberFor } from '../server/domain/leads/proof-of-work.ts';
import { sha256Words } from '../widget/proof-of-work.ts';

/** Hashes per second of `hash` over salt+number strings like a challenge's, for ~`ms`. */
function rate(hash: (text: string) => unknown, ms = 700): number {
  const salt = 'a1b2c3d4e5f6a7b8c9d0e1f2?expires=1772366400&license=lic_0123456789abcdef';
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) for (let i = 0; i < 2_000; i++) hash(salt + n++);
  return n / ((performance.now() - start) / 1000);
}

export interface PowFigures {
  widgetRate: number;
  nativeRate: number;
  visitorMs: number;
  floodVisitorMs: number;
  attackerMs: number;
  ratio: number;
  curve: [number, number][];
}

/**
 * The cost of a lead in proof of work: the visitor solves with the widget's own SHA-256 at the
 * usual difficulty; the attacker floods one license (108 leads in an hour, as in issue 22) with
 * native SHA-256 (node:crypto: the attacker's best case), and pays the curve past the first few.
 * Expected work is maxnumber / 2 hashes.
 */
export function runPowBench(): PowFigures {
  const encoder = new TextEncoder();
  const widgetRate = rate((t) => sha256Words(encoder.encode(t)));
  const nativeRate = rate((t) => createHash('sha256').update(t).digest());
  const flood = Array.from({ length: 108 }, (_, i) => maxNumberFor(i)).slice(DIFFICULTY.FREE_LEADS);
  const attackerHashes = flood.reduce((a, b) => a + b / 2, 0) / flood.length;
  const visitorMs = (DIFFICULTY.BASE / 2 / widgetRate) * 1000;
  const attackerMs = (attackerHashes / nativeRate) * 1000;
  return {
    widgetRate,
    nativeRate,
    visitorMs,
    floodVisitorMs: (DIFFICULTY.CAP / 2 / widgetRate) * 1000,
    attackerMs,
    ratio: attackerMs / visitorMs,
    curve: [0, 10, 15, 20, 30, 40, 50, 60, 108].map((n) => [n, maxNumberFor(n)]),
  };
}

export function printPowFigures(f: PowFigures): void {
  const r = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(
    `Proof of work: widget SHA-256 ${r(f.widgetRate)} hashes/s, node:crypto ${r(f.nativeRate)} hashes/s (this machine, Node)`,
  );
  console.log(
    `  curve (leads in the last hour → maxnumber): ${f.curve.map(([n, m]) => `${n}→${r(m)}`).join(', ')}`,
  );
  console.log(
    `  visitor (usual day, widget JS): ${f.visitorMs.toFixed(1)} ms/lead; attacker (108 leads/hour, native, past the first ${DIFFICULTY.FREE_LEADS}): ${f.attackerMs.toFixed(0)} ms/lead — ${f.ratio.toFixed(0)}× the visitor's`,
  );
  console.log(
    `  a visitor arriving during such a flood (widget JS, at the cap): ${(f.floodVisitorMs / 1000).toFixed(1)} s`,
  );
}

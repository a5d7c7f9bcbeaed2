import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../server/infra/repo-root.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimeEntry {
  name: string;
  where: string;
  selfMs: number;
  percent: number;
}

function shortPath(url: string): string {
  if (!url) return '(native)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  return path.startsWith(repoRoot()) ? path.slice(repoRoot().length + 1) : path;
}

/**
 * Self time per function (name + file:line) of a V8 `.cpuprofile`, largest first. With
 * `lastMs`, only the samples of the profile's last `lastMs` milliseconds count (the measured load,
 * without start-up, provisioning and warm-up).
 */
export function topSelfTime(file: string, count = 15, lastMs?: number): SelfTimeEntry[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, { name: string; where: string; us: number }>();
  const span = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const from = lastMs === undefined ? 0 : span - lastMs * 1000;
  let elapsed = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsed += delta;
    if (elapsed < from) return;
    const node = byId.get(id);
    if (!node) return;
    total += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${shortPath(url)}:${lineNumber + 1}` : '(native)';
    const name = functionName || '(anonymous)';
    const key = `${name} ${where}`;
    const entry = selfUs.get(key) ?? { name, where, us: 0 };
    entry.us += delta;
    selfUs.set(key, entry);
  });
  return [...selfUs.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((e) => ({
      name: e.name,
      where: e.where,
      selfMs: Math.round(e.us / 1000),
      percent: Math.round((e.us / total) * 1000) / 10,
    }));
}

export function formatSelfTime(entries: SelfTimeEntry[]): string {
  return entries
    .map(
      (e) => `${String(e.selfMs).padStart(7)} ms ${String(e.percent).padStart(5)} %  ${e.name}  ${e.where}`,
    )
    .join('\n');
}

// `tsx bench/cpu-profile.ts file.cpuprofile [count]`
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/cpu-profile.ts <file.cpuprofile> [count]');
  console.log(formatSelfTime(topSelfTime(file, count ? Number(count) : 15)));
}

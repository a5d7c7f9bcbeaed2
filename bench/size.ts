import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const DIST = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'embed');
/** The loader sits on every page of a firm's site: keep it a few KB. */
export const LOADER_GZIP_BUDGET = 5 * 1024;

export interface SizeRow {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

function measure(file: string): SizeRow {
  const bytes = readFileSync(join(DIST, file));
  return {
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes).length,
  };
}

export function embedSizes(): SizeRow[] {
  if (!existsSync(join(DIST, 'loader.js'))) execSync('npm run build:embed --silent', { stdio: 'inherit' });
  const assets = readdirSync(join(DIST, 'assets')).map((f) => `assets/${f}`);
  return ['loader.js', ...assets.filter((f) => /\.(js|css)$/.test(f))].map(measure);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = embedSizes();
  for (const r of rows)
    console.log(
      `${r.file.padEnd(32)} raw ${String(r.raw).padStart(7)} B  gzip ${String(r.gzip).padStart(6)} B  brotli ${String(r.brotli).padStart(6)} B`,
    );
  const loader = rows[0]!;
  console.log(`loader.js gzip ${loader.gzip} B of a ${LOADER_GZIP_BUDGET} B budget`);
  if (loader.gzip > LOADER_GZIP_BUDGET) process.exit(1);
}

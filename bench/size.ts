import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { appHtml } from '../server/mcp/app-resource.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist', 'embed');
/**
 * The loader sits on every page of a firm's site (issue 10: 3 KB; issue 20: 3,300 bytes gzipped,
 * room for the table of first heights and the page path; the 'client won' round: 3,400 bytes, see
 * docs/decisions/size-budget-client-won.md; aim for 2 KB).
 */
export const LOADER_GZIP_BUDGET = 3_400;
/** What one calculator page loads, HTML, CSS and JS together (at most 26 KB gzipped this round, aim for 15 KB). */
export const PAGE_GZIP_BUDGET = 26 * 1024;
/**
 * Another language's words for one calculator page (its dynamically imported chunk, the shared
 * words included), loaded only by a widget in that language: at most 6 KB gzipped (issue 45).
 */
export const LANGUAGE_GZIP_BUDGET = 6 * 1024;
/** The embed host writes the API URL into loader.js; a typical one is measured, as served. */
const SERVED_API_URL = 'https://api.svc.example';

export interface SizeRow {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface EmbedSizes {
  loader: SizeRow;
  /** Per widget page, the page (with its inline CSS) and the JS it loads (each file compressed on its own, as it travels). */
  pages: SizeRow[];
  /** Per widget page, each chunk it imports only when asked (a language's words). */
  languages: SizeRow[];
}

function measure(distDir: string, file: string): SizeRow {
  let bytes = readFileSync(join(distDir, file));
  if (file === 'loader.js')
    bytes = Buffer.from(bytes.toString('utf8').replaceAll('__SVC_API_URL__', SERVED_API_URL));
  return {
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** The `/assets/…` scripts and stylesheets a built page references. */
export function assetsOf(html: string): string[] {
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)];
  return [...new Set(refs.map((m) => m[1]!))];
}

/** The chunks a built script imports on demand (`import("./es-….js")`), as `assets/…` paths. */
export function lazyChunksOf(js: string): string[] {
  return [...js.matchAll(/\bimport\(\s*[`'"]\.\/([^`'"]+\.js)[`'"]\s*\)/g)].map((m) => `assets/${m[1]!}`);
}

function sum(file: string, rows: SizeRow[]): SizeRow {
  return rows.reduce(
    (a, r) => ({ file, raw: a.raw + r.raw, gzip: a.gzip + r.gzip, brotli: a.brotli + r.brotli }),
    {
      file,
      raw: 0,
      gzip: 0,
      brotli: 0,
    },
  );
}

/** Sizes of the built embed; builds it first (`npm run build:embed`) when `distDir` is the repo's and is missing. */
export function measureEmbed(distDir = DIST): EmbedSizes {
  if (!existsSync(join(distDir, 'loader.js')) && distDir === DIST) {
    execSync('npm run build:embed --silent', { cwd: ROOT, stdio: 'inherit' });
  }
  const languages: SizeRow[] = [];
  const pages = readdirSync(join(distDir, 'w'))
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((page) => {
      const html = readFileSync(join(distDir, 'w', page), 'utf8');
      for (const script of assetsOf(html).filter((a) => a.endsWith('.js')))
        for (const chunk of lazyChunksOf(readFileSync(join(distDir, script), 'utf8')))
          languages.push({ ...measure(distDir, chunk), file: `w/${page} language chunk` });
      // The page itself counts: its stylesheet is inline.
      return sum(
        `w/${page} (HTML+CSS+JS)`,
        [`w/${page}`, ...assetsOf(html)].map((file) => measure(distDir, file)),
      );
    });
  return { loader: measure(distDir, 'loader.js'), pages, languages };
}

/** Rows for `npm run bench`: the loader, then each page. */
export function embedSizes(distDir = DIST): SizeRow[] {
  const { loader, pages } = measureEmbed(distDir);
  return [loader, ...pages];
}

/**
 * The MCP App of `estimate` (dist/mcp-app/app.html) as a host reads it: filled in for a firm with
 * a long name, every calculator's fields included. One document, script and style inline; held to a
 * calculator page's budget.
 */
export function measureMcpApp(file = join(ROOT, 'dist', 'mcp-app', 'app.html')): SizeRow | undefined {
  if (!existsSync(file)) return undefined;
  const html = appHtml(readFileSync(file, 'utf8'), {
    name: 'Whitfield, Oyelaran & Castellanos-Brandt Estate Planning LLP',
    accent: '#1a6b4f',
  });
  const bytes = Buffer.from(html);
  return {
    file: 'mcp-app/app.html (filled in)',
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(9);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { loader, pages, languages } = measureEmbed();
  const app = measureMcpApp();
  if (app) pages.push(app);
  console.log(`${'file'.padEnd(36)}${'raw'.padStart(9)}${'gzip'.padStart(9)}${'brotli'.padStart(9)}`);
  for (const r of [loader, ...pages, ...languages])
    console.log(`${r.file.padEnd(36)}${kb(r.raw)}${kb(r.gzip)}${kb(r.brotli)}`);
  const verdict = (size: number, budget: number) => (size <= budget ? 'ok' : 'OVER BUDGET');
  console.log(
    `loader.js: ${loader.gzip} B gzip -9 (budget ${LOADER_GZIP_BUDGET} B) — ${verdict(loader.gzip, LOADER_GZIP_BUDGET)}`,
  );
  for (const page of pages) {
    console.log(
      `${page.file}: ${page.gzip} B gzip -9 (budget ${PAGE_GZIP_BUDGET} B) — ${verdict(page.gzip, PAGE_GZIP_BUDGET)}`,
    );
  }
  for (const chunk of languages) {
    console.log(
      `${chunk.file}: ${chunk.gzip} B gzip -9 (budget ${LANGUAGE_GZIP_BUDGET} B) — ${verdict(chunk.gzip, LANGUAGE_GZIP_BUDGET)}`,
    );
  }
  if (
    loader.gzip > LOADER_GZIP_BUDGET ||
    pages.some((p) => p.gzip > PAGE_GZIP_BUDGET) ||
    languages.some((c) => c.gzip > LANGUAGE_GZIP_BUDGET)
  )
    process.exitCode = 1;
}

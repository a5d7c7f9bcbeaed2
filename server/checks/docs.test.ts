import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands, currentPart, generatedParts } from '../../scripts/docs-generate.ts';
import { createHotBackup } from '../domain/backup/hot-backup.ts';
import { EnvSchema } from '../infra/env.ts';
import { ERROR_CODES } from '../lib/errors.ts';
import { canonicalPath } from '../main/app.ts';
import { createBackupRoutes } from '../routes/admin/backup.ts';
import { createAdminRoutes } from '../routes/admin/index.ts';
import { createAdminUserRoutes } from '../routes/admin/users.ts';
import operationIds from '../routes/operation-ids.json' with { type: 'json' };
import { createTestContext } from '../test-support/services.ts';

/**
 * Docs stay honest: every environment variable, CLI command, HTTP path and error code that
 * README.md and docs/ name exists in the code; every relative link resolves; the generated parts
 * are what `npm run docs` would write now; every `npm run NAME` is a script of package.json. Each
 * rule is written down next to its extractor.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', ...docs.sort()];
}

interface Doc {
  file: string;
  /** Text outside fenced blocks, code spans included. */
  prose: string;
  /** Inline code spans, whitespace collapsed, with the line they sit on. */
  spans: { text: string; line: string }[];
  /** Fenced code blocks. */
  blocks: string[];
}

function parse(file: string): Doc {
  const prose: string[] = [];
  const blocks: string[] = [];
  let block: string[] | undefined;
  for (const line of read(file).split('\n')) {
    if (line.startsWith('```')) {
      if (block) blocks.push(block.join('\n'));
      block = block ? undefined : [];
    } else if (block) block.push(line);
    else prose.push(line);
  }
  const spans: Doc['spans'] = [];
  const lines = prose.join('\n');
  for (const m of lines.matchAll(/`([^`]+)`/g)) {
    const start = lines.lastIndexOf('\n', m.index) + 1;
    const end = lines.indexOf('\n', m.index + m[0].length);
    spans.push({
      text: m[1]!.replace(/\s+/g, ' ').trim(),
      line: lines.slice(start, end < 0 ? undefined : end),
    });
  }
  return { file, prose: lines, spans, blocks };
}

const docs = markdownFiles().map(parse);
type Finding = { file: string; name: string };
const where = (findings: Finding[]) => findings.map((f) => `${f.file}: ${f.name}`);

// ---- environment variables and error codes -------------------------------------------------

const UPPER_SNAKE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/** Names the code reads from the environment: env.ts's schema, and any other `process.env.X` / `env.X`. */
function environmentNames(): Set<string> {
  const names = new Set<string>(Object.keys(EnvSchema.shape));
  const sources = ['server', 'scripts', 'bench', 'e2e'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|mjs|cjs)$/.test(f) && !f.includes('node_modules'))
      .map((f) => join(dir, f)),
  );
  for (const file of [...sources, ...readdirSync(root).filter((f) => /^vite.*\.ts$/.test(f))]) {
    for (const m of read(file).matchAll(/\b(?:process\.)?env(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g))
      names.add(m[1]!);
  }
  const scripts = Object.values(
    (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts,
  );
  for (const script of scripts) for (const m of script.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)) names.add(m[1]!);
  return names;
}

/**
 * UPPER_SNAKE names in code spans that are neither environment variables nor error codes, each
 * with the file that defines it (checked to contain it).
 */
const OTHER_NAMES: Record<string, string> = {
  SECRET_KEY_IN_PAGE: 'server/domain/activation/embed-sessions.ts',
  ENV_DOCS: 'server/infra/env.ts',
  EARLIER_DEFAULTS_ES: 'server/domain/accounts/consent.ts',
  HEIR_CLASS_NAMES: 'calculators/inheritance-tax/tables.ts',
};

/** An error code is a code span right after an HTTP status (`409 SEATS_EXHAUSTED`) or in a table whose first column is "code". */
function errorCodeSpans(doc: Doc): Finding[] {
  const found: Finding[] = [];
  let codeTable = false;
  for (const line of doc.prose.split('\n')) {
    if (!line.startsWith('|')) codeTable = false;
    else if (/^\|\s*code\s*\|/.test(line)) codeTable = true;
    const tableCode = codeTable ? /^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|/.exec(line)?.[1] : undefined;
    if (tableCode) found.push({ file: doc.file, name: tableCode });
    for (const m of line.matchAll(/\b[1-5]\d\d\s+`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g))
      found.push({ file: doc.file, name: m[1]! });
  }
  return found;
}

// ---- CLI commands ---------------------------------------------------------------------------

const COMMANDS = new Set(cliCommands());
const NOUNS = new Set([...COMMANDS].map((c) => c.split(' ')[0]!));
const VERBS = new Set([...COMMANDS].flatMap((c) => c.split(' ').slice(1)));

/**
 * `npm run svc -- noun verb` anywhere, and code spans of two lowercase words that read as a
 * command (`lead export`, `svc keys rotate`): the first word is a CLI noun or the second a CLI verb.
 */
function commandMentions(doc: Doc): Finding[] {
  const found: Finding[] = [];
  const texts = [doc.prose, ...doc.blocks];
  for (const text of texts)
    for (const m of text.matchAll(/npm run svc -- ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g))
      found.push({ file: doc.file, name: m[2] && !COMMANDS.has(m[1]!) ? `${m[1]} ${m[2]}` : m[1]! });
  for (const { text } of doc.spans) {
    if (/^(npm|npx|node) /.test(text)) continue; // command lines of other tools
    const m = /^(?:svc )?([a-z][a-z-]*) ([a-z][a-z-]*)(?: |$)/.exec(text);
    if (m && (NOUNS.has(m[1]!) || VERBS.has(m[2]!))) found.push({ file: doc.file, name: `${m[1]} ${m[2]}` });
  }
  return found;
}

const isCommand = (name: string) => COMMANDS.has(name) || (!name.includes(' ') && COMMANDS.has(name));

// ---- HTTP paths -----------------------------------------------------------------------------

const PATH_PREFIXES = '(?:v1|api|admin/v1|oauth|\\.well-known|portal|healthz|readyz|metrics|docs|mcp)';
const PATH = new RegExp(
  `(?:https?://(?:127\\.0\\.0\\.1|localhost):8787|\\{(?:api|portal|PUBLIC_API_URL)\\}|(?<![\\w.:/{}-]))(/${PATH_PREFIXES}(?:/[^\\s\`'")\\]<>,;]*)?)`,
  'g',
);

/** Paths as the docs write them, with `{base_url}` (the `/v1` base) resolved. */
function pathMentions(doc: Doc): Finding[] {
  const found: Finding[] = [];
  for (const text of [doc.prose, ...doc.blocks]) {
    for (const m of text.replaceAll('{base_url}', '/v1').matchAll(PATH)) {
      const path = m[1]!.replace(/[?#].*$/, '').replace(/[.:]+$/, '');
      if (path.startsWith('/docs/') && path.endsWith('.md')) continue; // a link into docs/, checked as a link
      for (const alternative of expandAlternatives(path)) found.push({ file: doc.file, name: alternative });
    }
  }
  return found;
}

/** `/admin/v1/webhooks/{id}/test|roll-secret|enable` is three paths. */
function expandAlternatives(path: string): string[] {
  const segments = path.split('/');
  const last = segments.at(-1)!;
  if (!last.includes('|')) return [path];
  return last.split('|').map((s) => [...segments.slice(0, -1), s].join('/'));
}

type Pattern = { segments: string[]; prefix: boolean };

const toPattern = (path: string): Pattern => {
  const prefix = path.endsWith('/*');
  const segments = (prefix ? path.slice(0, -2) : path).split('/').filter(Boolean);
  return { segments: segments.map((s) => (s.startsWith(':') || /^\{.+\}$/.test(s) ? '*' : s)), prefix };
};

/** A written segment standing for any value: `{id}`, `:id`, `<slug>`, `lead_…`, `…`. */
const isPlaceholder = (s: string) => /^\{.*\}$|^:|^<.*>$|…/.test(s);

/**
 * A written path matches a route segment by segment; placeholders match only parameters. A path
 * that stops early (`/v1`, `/v1/portal/…`, `/admin/v1/*`) names an area: some route must lie under it.
 */
function matches(written: string, route: Pattern): boolean {
  const bare = written.replace(/(…|\.\.\.|\*)$/, '').replace(/^\/api(\/|$)/, '/v1/api$1');
  const canonical = canonicalPath(new Request(`http://docs.test${bare}`));
  const segments = canonical.split('/').filter(Boolean);
  if (segments.length > route.segments.length && !route.prefix) return false;
  return segments.every((s, i) => {
    const r = route.segments[i];
    if (r === undefined) return route.prefix;
    return r === '*' || (!isPlaceholder(s) && r === s) || (isPlaceholder(s) && r === '*');
  });
}

/** The portal app's own pages (`portal/app.tsx`): literal paths and `/portal/leads/{leadId}`. */
function portalPages(): Pattern[] {
  const app = read('portal/app.tsx');
  const literal = [...app.matchAll(/'(\/(?:portal|oauth)\/[^']*)'/g)].map(
    (m) => m[1]!.replace(/\/$/, '') || '/',
  );
  const param = [...app.matchAll(/\^\\\/portal\\\/([a-z-]+)\\\/\(/g)].map((m) => `/portal/${m[1]}/:id`);
  return [...literal, ...param].map(toPattern);
}

let routes: Pattern[] = [];
let closeApp: () => Promise<void> = async () => {};
beforeAll(async () => {
  const t = await createTestContext({ METRICS_TOKEN: 'm'.repeat(16) });
  closeApp = t.close;
  // As servers.ts mounts them: the admin API rides on the API app.
  const token = 'a'.repeat(43);
  t.app.route('/', createAdminRoutes(t.services, token));
  t.app.route('/', createAdminUserRoutes(t.services, token));
  t.app.route('/', createBackupRoutes(createHotBackup(t.services.database), token));
  const served = t.app.routes
    .filter((r) => !(r.method === 'ALL' && r.path.endsWith('*'))) // middleware, not routes
    .filter((r) => r.path !== '/portal/*') // the portal app's pages are checked against the app itself
    .map((r) => r.path);
  const openApi = operationIds.map((id) => id.split(' ')[1]!);
  routes = [...new Set([...served, ...openApi])].map(toPattern).concat(portalPages());
}, 120_000);
afterAll(() => closeApp());

// ---- links ----------------------------------------------------------------------------------

const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of parse(file).prose.split('\n')) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading) anchors.add(slug(heading));
  }
  return anchors;
}

function brokenLinks(doc: Doc): Finding[] {
  const found: Finding[] = [];
  const prose = doc.prose.replace(/`[^`]*`/g, '');
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/.test(target)) continue;
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const resolved = file ? relative(root, join(root, dirname(doc.file), file)) : doc.file;
    if (!existsSync(join(root, resolved))) found.push({ file: doc.file, name: target });
    else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
      found.push({ file: doc.file, name: `${target} (no such heading)` });
  }
  return found;
}

// ---- the checks ---------------------------------------------------------------------------

describe('README.md and docs/', () => {
  it('name only error codes that server/lib/errors.ts defines', () => {
    const findings = docs.flatMap(errorCodeSpans);
    expect(findings.length).toBeGreaterThan(20);
    expect(where(findings.filter((f) => !(f.name in ERROR_CODES)))).toEqual([]);
  });

  it('name only environment variables the code reads (UPPER_SNAKE code spans and NAME= in examples)', () => {
    const known = environmentNames();
    for (const [name, file] of Object.entries(OTHER_NAMES)) expect(read(file), name).toContain(name);
    const errorCodes = new Set(docs.flatMap(errorCodeSpans).map((f) => f.name));
    const findings = docs.flatMap((doc) => [
      ...doc.spans.flatMap(({ text }) =>
        [...text.matchAll(UPPER_SNAKE)].map((m) => ({ file: doc.file, name: m[0] })),
      ),
      ...doc.blocks.flatMap((block) =>
        [...block.matchAll(/(?:^|\s)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=/gm)].map((m) => ({
          file: doc.file,
          name: m[1]!,
        })),
      ),
    ]);
    expect(findings.length).toBeGreaterThan(50);
    const unknown = findings.filter(
      // Names in an error-code position are the error-code check's to judge.
      (f) => !known.has(f.name) && !errorCodes.has(f.name) && !(f.name in OTHER_NAMES),
    );
    expect(where(unknown)).toEqual([]);
  });

  it('name only CLI commands the CLI has', () => {
    const findings = docs.flatMap(commandMentions);
    expect(findings.length).toBeGreaterThan(20);
    expect(where(findings.filter((f) => !isCommand(f.name)))).toEqual([]);
  });

  it('name only HTTP paths the server routes (OpenAPI documents, other routes, portal pages)', () => {
    const findings = docs.flatMap(pathMentions);
    expect(findings.length).toBeGreaterThan(50);
    expect(where(findings.filter((f) => !routes.some((r) => matches(f.name, r))))).toEqual([]);
  });

  it('name only npm scripts package.json has (`npm run NAME`)', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const findings = docs.flatMap((doc) =>
      [doc.prose, ...doc.blocks].flatMap((text) =>
        [...text.matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => ({ file: doc.file, name: m[1]! })),
      ),
    );
    expect(findings.length).toBeGreaterThan(20);
    expect(where(findings.filter((f) => !(f.name in scripts)))).toEqual([]);
  });

  it('link only to files (and headings) that exist', () => {
    expect(docs.flatMap(brokenLinks).map((f) => `${f.file}: ${f.name}`)).toEqual([]);
  });

  it('hold generated parts equal to what npm run docs writes now', () => {
    for (const part of generatedParts())
      expect(currentPart(read(part.file), part.name), `${part.file} "${part.name}": run npm run docs`).toBe(
        part.text,
      );
  });

  it('send nobody outside the repository (../shared)', () => {
    expect(docs.filter((d) => /\.\.\/shared|\/work\/shared/.test(read(d.file))).map((d) => d.file)).toEqual(
      [],
    );
  });
});

/**
 * Writes the generated parts of docs/ (`npm run docs`): the configuration tables from
 * server/infra/env.ts, the CLI reference from the CLI's own usage text, and the whole of
 * docs/rules-and-sources.md from the estate-tax rule catalog. A part of a page sits between
 * `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; the words around it are written by hand.
 * `--check` writes nothing and exits 1 when a part differs from what would be written
 * (server/checks/docs.test.ts makes the same comparison in `npm test`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { rulesCatalog } from '../calculators/estate-tax/rules-catalog.ts';
import { rulesMarkdown } from '../calculators/estate-tax/rules-markdown.ts';
import { BACKUP_USAGE } from '../server/cli/backup-commands.ts';
import { USAGE } from '../server/cli/commands.ts';
import { SECRETS_USAGE } from '../server/cli/secrets-commands.ts';
import { ENV_DOCS, ENV_SECTIONS, type EnvDoc, EnvSchema } from '../server/infra/env.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The CLI's full usage text, exactly as `npm run svc -- --help` prints it. */
const CLI_USAGE = `${USAGE}\n\n${BACKUP_USAGE}\n${SECRETS_USAGE}`;

/** `account create`, `keys rotate`, `backup`, …: the commands the usage text lists. */
export function cliCommands(usage = CLI_USAGE): string[] {
  const commands = new Set<string>();
  for (const line of usage.split('\n')) {
    const match = /^ {2}([a-z][a-z-]*)(?: ([a-z][a-z-]*))?(?=\s|$)/.exec(line);
    if (match) commands.add(match[2] ? `${match[1]} ${match[2]}` : match[1]!);
  }
  return [...commands];
}

type Def = { type: string; defaultValue?: unknown; in?: z.ZodType; innerType?: z.ZodType };

/** The schema's own default of a variable, looking through `.optional()`, `.transform()` and refinements. */
function defaultOf(schema: z.ZodType): unknown {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.type === 'default') return def.defaultValue;
  if (def.type === 'pipe' && def.in) return defaultOf(def.in);
  if (def.type === 'optional' && def.innerType) return defaultOf(def.innerType);
  return undefined;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

function defaultCell(name: string, doc: EnvDoc): string {
  const value = defaultOf(EnvSchema.shape[name as keyof typeof EnvSchema.shape]);
  if (value !== undefined && value !== '') return `\`${String(value)}\``;
  return doc.unset ? `unset: ${doc.unset}` : 'unset';
}

/** One table per section of every variable `server/infra/env.ts` reads, in the schema's order. */
function configurationTables(): string {
  const entries = Object.entries(ENV_DOCS) as [string, EnvDoc][];
  return ENV_SECTIONS.map((section) => {
    const rows = entries
      .filter(([, doc]) => doc.section === section)
      .map(([name, doc]) => `| \`${name}\` | ${cell(defaultCell(name, doc))} | ${cell(doc.description)} |`);
    return [`### ${section}`, '', '| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
  }).join('\n\n');
}

function cliReference(): string {
  return ['```', CLI_USAGE, '```'].join('\n');
}

/** The name of a part that is a whole file (no markers). */
const WHOLE_FILE = '*';

/** Each generated part: the file it lives in, its marker name, and what it holds now. */
export function generatedParts(): { file: string; name: string; text: string }[] {
  return [
    { file: 'docs/configuration.md', name: 'env', text: configurationTables() },
    { file: 'docs/cli.md', name: 'cli', text: cliReference() },
    { file: 'docs/rules-and-sources.md', name: WHOLE_FILE, text: rulesMarkdown(rulesCatalog()) },
  ];
}

const markers = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const;

/** The part between a file's markers, or undefined when the markers are missing. */
export function currentPart(content: string, name: string): string | undefined {
  if (name === WHOLE_FILE) return content;
  const [open, close] = markers(name);
  const start = content.indexOf(open);
  const end = content.indexOf(close);
  if (start < 0 || end < start) return undefined;
  return content
    .slice(start + open.length, end)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

function withPart(content: string, name: string, text: string): string {
  if (name === WHOLE_FILE) return text;
  const [open, close] = markers(name);
  const start = content.indexOf(open);
  const end = content.indexOf(close);
  if (start < 0 || end < start) throw new Error(`markers ${open} … ${close} are missing`);
  return `${content.slice(0, start + open.length)}\n${text}\n${content.slice(end)}`;
}

function main(check: boolean): number {
  let stale = 0;
  for (const part of generatedParts()) {
    const path = `${root}${part.file}`;
    const content = readFileSync(path, 'utf8');
    if (currentPart(content, part.name) === part.text) continue;
    stale += 1;
    if (check) console.error(`${part.file}: the "${part.name}" part is out of date; run npm run docs`);
    else {
      writeFileSync(path, withPart(content, part.name, part.text));
      console.log(`${part.file}: wrote the "${part.name}" part`);
    }
  }
  return check && stale > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.includes('--check'));

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { newId } from '../../db/engine/ids.ts';
import { insertLead } from '../../db/repos/leads-repo.ts';
import { needs } from '../../test-support/needs.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * Issue 40: the leads CSV as a real spreadsheet engine reads it. The portal's export is opened by
 * LibreOffice Calc (headless, Debian's `libreoffice-calc`) with its most eager CSV import options
 * (formulas evaluated, special numbers detected) and saved as flat OpenDocument XML, whose cells
 * say their type (`string` or `float`), their value and any formula. One conversion, a private
 * profile in a temporary directory.
 *
 * Filter options of the CSV import, in order: separator 44 (,), text delimiter 34 ("), charset 76
 * (UTF-8), first line 1, no column formats, language 1033 (en-US), quoted fields as text false,
 * detect special numbers true, (export options), evaluate formulas true.
 * https://help.libreoffice.org/latest/en-US/text/shared/guide/csv_params.html
 */
const soffice = ['soffice', 'libreoffice'].find(
  (bin) => spawnSync(bin, ['--version'], { timeout: 30_000 }).status === 0,
);
const libreOffice = needs({
  what: 'LibreOffice',
  missing: soffice ? undefined : 'no soffice binary',
  howTo: 'install LibreOffice Calc (Debian: apt-get install --no-install-recommends libreoffice-calc)',
});
const CSV_IMPORT = 'CSV:44,34,76,1,,1033,false,true,,,,,true';

interface Cell {
  type: string | undefined;
  value: string | undefined;
  formula: string | undefined;
  text: string;
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The first sheet's rows of a flat ODS file, each a list of cells (repeated cells expanded). */
function fodsRows(xml: string): Cell[][] {
  const table = /<table:table [\s\S]*?<\/table:table>/.exec(xml)?.[0] ?? '';
  const rows = [...table.matchAll(/<table:table-row[^>]*?(?:\/>|>([\s\S]*?)<\/table:table-row>)/g)];
  return rows.map(([, inner]) => {
    const cells: Cell[] = [];
    for (const m of (inner ?? '').matchAll(
      /<table:(?:covered-)?table-cell([^>]*?)(?:\/>|>([\s\S]*?)<\/table:(?:covered-)?table-cell>)/g,
    )) {
      const attrs = m[1] ?? '';
      const attr = (name: string) => {
        const found = new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];
        return found === undefined ? undefined : decode(found);
      };
      // The cell's paragraphs (the file is indented between elements, never inside a paragraph).
      const text = [...(m[2] ?? '').matchAll(/<text:p(?:\s[^>]*)?>([\s\S]*?)<\/text:p>/g)]
        .map(([, p]) =>
          decode(
            (p ?? '')
              .replace(/<text:s text:c="(\d+)"\/>/g, (_, n: string) => ' '.repeat(Number(n)))
              .replace(/<text:s\/>/g, ' ')
              .replace(/<[^>]+>/g, ''),
          ),
        )
        .join('\n');
      const cell = {
        type: attr('office:value-type'),
        value: attr('office:value'),
        formula: attr('table:formula'),
        text,
      };
      const repeat = Number(attr('table:number-columns-repeated') ?? 1);
      for (let i = 0; i < Math.min(repeat, 100); i++) cells.push(cell);
    }
    return cells;
  });
}

let t: TestContext;
beforeAll(async () => {
  if (soffice) t = await createTestContext();
});
afterAll(() => t?.close());

const ORIGIN = 'https://smithlaw.com';

libreOffice.describe('the leads CSV read back by LibreOffice Calc', () => {
  libreOffice.it(
    'phones stay text, guarded cells are not run, value and priority read as a number and a word',
    { timeout: 60_000 },
    async () => {
      const f = await t.seed.firm();
      const embed = await t.embedSession(f.publishableKey, ORIGIN);
      const inputs = { estateValue: 12_000_000, state: 'WA', dateOfDeath: '2026-08-01' };
      const calc = await t.json(
        '/v1/api/calc/estimate',
        { calculator: 'estate-tax', state: 'WA', inputs },
        { authorization: `Bearer ${embed}` },
      );
      expect(calc.status).toBe(200);
      const submitted = await t.json(
        '/v1/api/leads',
        {
          calculator: 'estate-tax',
          name: 'Zoë Ødegård',
          email: 'zoe@example.com',
          phone: '+1 212-555-0100',
          state: 'WA',
          consent: true,
          resultId: (await calc.json()).resultId,
        },
        { authorization: `Bearer ${embed}`, 'idempotency-key': `lo-${Date.now()}` },
      );
      expect(submitted.status).toBe(201);
      // A visitor who typed a formula as a name and a number as a phone (stored as given).
      const at = t.clock.now();
      await insertLead(t.database.db, {
        id: newId('lead'),
        accountId: f.account.id,
        calculator: 'estate-tax',
        name: '=HYPERLINK("http://evil.example","Click")',
        email: 'mallory@example.com',
        phone: '+12125550199',
        state: 'NY',
        status: 'new',
        consentText: 'I agree.',
        consentedAt: at,
        createdAt: new Date(at.getTime() - 60_000),
        updatedAt: at,
      });

      const owner = await portalCaller(t, f.account.id, 'owner');
      const res = await t.app.request('/v1/portal/leads/export.csv', {
        headers: { cookie: owner.cookie, origin: t.services.config.publicPortalUrl },
      });
      expect(res.status).toBe(200);
      const exported = await res.text();
      const header = exported
        .replace(/^\uFEFF/, '')
        .split('\r\n')[0]!
        .split(',');
      const column = (name: string) => {
        const i = header.indexOf(name);
        expect(i, name).toBeGreaterThanOrEqual(0);
        return i;
      };
      // A control line the export never writes: the same kinds of values without the guard, so the
      // test shows the engine does run them (it would pass for nothing if it read all as text).
      const control = header.map((name) =>
        name === 'name' ? '=1+2' : name === 'phone_e164' ? '+12125550100' : name === 'value' ? '-2' : '',
      );
      const dir = mkdtempSync(join(tmpdir(), 'svc-csv-lo-'));
      try {
        writeFileSync(
          join(dir, 'leads.csv'),
          `${exported}${control.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')}\r\n`,
        );
        const run = spawnSync(
          soffice!,
          [
            `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
            '--headless',
            '--norestore',
            `--infilter=${CSV_IMPORT}`,
            '--convert-to',
            'fods',
            '--outdir',
            dir,
            join(dir, 'leads.csv'),
          ],
          { encoding: 'utf8', timeout: 50_000 },
        );
        expect(run.status, run.stderr).toBe(0);
        const [head, ...rows] = fodsRows(readFileSync(join(dir, 'leads.fods'), 'utf8'));
        // The byte order mark made the file UTF-8 to the engine: the header and the names read right.
        expect(head!.slice(0, header.length).map((c) => c.text)).toEqual(header);
        const byName = (name: string) => rows.find((r) => r[column('name')]?.text === name)!;

        const zoe = byName('Zoë Ødegård');
        expect(zoe, 'the submitted lead').toBeDefined();
        const cell = (row: Cell[], name: string) => row[column(name)]!;
        // Phones: text, as the visitor typed them and in E.164, behind the visible guard apostrophe;
        // never a sum (+1-212-…) nor a number shown as 1.21E+10.
        expect(cell(zoe, 'phone')).toMatchObject({ type: 'string', text: "'+1 212-555-0100" });
        expect(cell(zoe, 'phone_e164')).toMatchObject({ type: 'string', text: "'+12125550100" });
        expect(cell(zoe, 'phone_e164').formula).toBeUndefined();
        // Value: a number the sheet can sum; priority and its reasons: words.
        const listed = (await owner.call('GET', 'leads')).body.data as {
          name: string;
          value: { amount: number };
        }[];
        const amount = listed.find((l) => l.name === 'Zoë Ødegård')!.value.amount;
        expect(cell(zoe, 'value')).toMatchObject({ type: 'float', value: String(amount) });
        expect(Number(cell(zoe, 'value').value)).toBeGreaterThan(1_000_000);
        expect(cell(zoe, 'priority')).toMatchObject({ type: 'string', text: 'high' });
        expect(cell(zoe, 'priority_reasons').type).toBe('string');
        expect(cell(zoe, 'priority_reasons').text).toMatch(
          /^Estate of \$12M is \$9M over Washington’s \$3M exemption; about \$[\d.]+M in state tax at stake\./,
        );

        const mallory = byName('\'=HYPERLINK("http://evil.example","Click")');
        expect(mallory, 'the formula-named lead').toBeDefined();
        expect(cell(mallory, 'name').formula).toBeUndefined();
        expect(cell(mallory, 'name').type).toBe('string');
        expect(cell(mallory, 'phone')).toMatchObject({ type: 'string', text: "'+12125550199" });
        // Unrated (no calculation): empty, not zero.
        expect(cell(mallory, 'value').type).toBeUndefined();
        expect(cell(mallory, 'priority').text).toBe('');

        // The control line: unguarded, the engine runs the formula and turns the phone into a number.
        const raw = rows.find((r) => r[column('name')]?.formula !== undefined)!;
        expect(raw, 'the control line').toBeDefined();
        expect(cell(raw, 'name')).toMatchObject({ formula: 'of:=1+2', type: 'float', value: '3' });
        expect(cell(raw, 'phone_e164')).toMatchObject({ type: 'float', value: '12125550100' });
        expect(cell(raw, 'value')).toMatchObject({ type: 'float', value: '-2' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

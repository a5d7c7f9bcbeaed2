import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typicalReport } from '../../bench/fixtures.ts';
import { reportFonts } from './fonts.ts';
import { formatUsd, type ReportInput, renderReport } from './render-report.ts';

// Needs poppler-utils (pdfinfo, pdftotext, pdftoppm); .ci/run installs it.
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });
const squash = (text: string) => text.replace(/\s+/g, ' ');

async function writePdf(input: ReportInput): Promise<{ dir: string; file: string; pdf: Buffer }> {
  const pdf = await renderReport(input);
  const dir = mkdtempSync(join(tmpdir(), 'svc-report-'));
  const file = join(dir, 'report.pdf');
  writeFileSync(file, pdf);
  return { dir, file, pdf };
}

function inspect(file: string): { pages: number; info: string; text: string } {
  const info = run('pdfinfo', [file]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  return { pages, info, text: squash(run('pdftotext', ['-layout', file, '-'])) };
}

function report(overrides: Partial<ReportInput> = {}): ReportInput {
  return { ...typicalReport(), firmName: 'Łukasz Żółć & Søren Ñúñez, LLP', ...overrides };
}

const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    label: `Bequest ${i + 1} to a named beneficiary under article ${i + 3}`,
    amount: (i - 5) * 104_729.37,
    kind: i === n - 1 ? 'total' : 'info',
  }));

describe('formatUsd', () => {
  it.each([
    [0, '$0.00'],
    [-0, '$0.00'],
    [1234567.89, '$1,234,567.89'],
    [-1234, '-$1,234.00'],
    [-0.004, '$0.00'],
    [0.005, '$0.01'],
    [1.005, '$1.01'],
    [999.995, '$1,000.00'],
    [12.344, '$12.34'],
    [1e12, '$1,000,000,000,000.00'],
    [-98_765_432.1, '-$98,765,432.10'],
    [Number.NaN, '—'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('%d → %s', (amount, text) => {
    expect(formatUsd(amount)).toBe(text);
  });
});

describe('renderReport', () => {
  it('renders a typical report on one page with accents, every amount, rules and disclaimer', async () => {
    const input = report();
    const { dir, file, pdf } = await writePdf(input);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    run('pdftoppm', ['-png', '-r', '50', '-singlefile', file, join(dir, 'page')]);
    expect(statSync(join(dir, 'page.png')).size).toBeGreaterThan(10_000);

    const { pages, info, text } = inspect(file);
    expect(pages).toBe(1);
    expect(info).toMatch(/^Author:\s+Łukasz Żółć & Søren Ñúñez, LLP$/m);
    expect(info).toMatch(/^Creator:\s+svc$/m);
    expect(info).toMatch(/^Title:\s+Estate tax/m);
    expect(text).toContain('Łukasz Żółć & Søren Ñúñez, LLP');
    expect(text).toContain(input.calculatorName);
    for (const item of [...input.lineItems, ...input.totals]) expect(text).toContain(formatUsd(item.amount));
    for (const item of [...input.inputs, ...(input.extraOutputs ?? [])]) expect(text).toContain(item.value);
    for (const note of input.notes) expect(text).toContain(squash(note));
    expect(text).toContain(squash(input.disclaimer));
    expect(text).toContain(input.ruleSet.id);
    expect(text).toContain(input.ruleSet.effectiveDate);
    expect(text).toContain(input.resultId);
    expect(text).toContain(input.generatedAt.toISOString().slice(0, 10));
  });

  it.each([30, 45, 60])('keeps %i line items to two pages, every amount shown', async (n) => {
    const input = report({ lineItems: lines(n) });
    const { file } = await writePdf(input);
    const { pages, text } = inspect(file);
    expect(pages).toBeLessThanOrEqual(2);
    for (const item of input.lineItems) expect(text).toContain(formatUsd(item.amount));
    expect(text).toContain(squash(input.disclaimer));
  });

  it('wraps a long firm name, long notes and a long disclaimer without losing text', async () => {
    const firmName =
      'Łukasz Żółć, Søren Ñúñez, Ærøskøbing & Dvořák Estate Planning and Elder Law Partners, LLP';
    const notes = Array.from(
      { length: 6 },
      (_, i) => `Note ${i + 1}: ${'a portability election may apply '.repeat(6)}`,
    );
    const disclaimer = `${'This is an estimate for information only and is not legal or tax advice. '.repeat(6)}End.`;
    const input = report({ firmName, notes, disclaimer, lineItems: lines(30) });
    const { file } = await writePdf(input);
    const { pages, text } = inspect(file);
    expect(pages).toBeLessThanOrEqual(2);
    expect(text).toContain(squash(disclaimer).trim());
    for (const note of notes) expect(text).toContain(squash(note).trim());
    expect(text).toContain('Ærøskøbing & Dvořák');
  });

  it('gives identical bytes for identical input', async () => {
    const [a, b] = await Promise.all([renderReport(report()), renderReport(report())]);
    expect(a.equals(b)).toBe(true);
  });

  it('reads the font files once per process', () => {
    expect(reportFonts()).toBe(reportFonts());
    expect(reportFonts().regular.length).toBeGreaterThan(100_000);
  });
});

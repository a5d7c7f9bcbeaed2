import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typicalReport } from '../../bench/fixtures.ts';
import { formatUsd, renderReport } from './render-report.ts';

describe('formatUsd', () => {
  it.each([
    [0, '$0.00'],
    [1234567.89, '$1,234,567.89'],
    [-1234, '-$1,234.00'],
    [0.005, '$0.01'],
    [-0.001, '$0.00'],
    [1e12, '$1,000,000,000,000.00'],
  ])('%d → %s', (amount, text) => {
    expect(formatUsd(amount)).toBe(text);
  });
});

describe('renderReport', () => {
  it('renders a one-page report a person can read: accents, figures, rules and disclaimer', async () => {
    const input = typicalReport();
    const pdf = await renderReport(input);
    const dir = mkdtempSync(join(tmpdir(), 'svc-report-'));
    const file = join(dir, 'report.pdf');
    writeFileSync(file, pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/Pages:\s+1\b/);
    execFileSync('pdftoppm', ['-png', '-r', '40', file, join(dir, 'page')]);
    expect(statSync(join(dir, 'page-1.png')).size).toBeGreaterThan(5_000);

    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Łukasz Żółć & Søren Ñúñez, LLP');
    expect(text).toContain('Estate tax');
    for (const item of [...input.lineItems, ...input.totals]) expect(text).toContain(formatUsd(item.amount));
    expect(text).toContain('effective 2026-01-01');
    expect(text).toContain('not legal or tax advice');
    expect(text).toContain('2026-03-01');
  });

  it('stays within two pages with many line items', async () => {
    const input = typicalReport();
    input.lineItems = Array.from({ length: 30 }, (_, i) => ({ label: `Line ${i + 1}`, amount: i * 1000.5 }));
    const dir = mkdtempSync(join(tmpdir(), 'svc-report-'));
    const file = join(dir, 'long.pdf');
    writeFileSync(file, await renderReport(input));
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
    expect(pages).toBeLessThanOrEqual(2);
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { typicalReport } from '../../bench/fixtures.ts';
import { formatUsd } from '../../calculators/money.ts';
import { readPdf, renderPdfPage } from '../test-support/pdf-reader.ts';
import { reportFonts } from './fonts.ts';
import { longDate } from './format.ts';
import { type ReportInput, renderReport, reportAccent } from './render-report.ts';

// Read with pdfjs-dist and drawn with @napi-rs/canvas, in-process (no poppler-utils).
const squash = (text: string) => text.replace(/\s+/g, ' ');

async function inspect(input: ReportInput) {
  const pdf = await renderReport(input);
  return { pdf, ...(await readPdf(pdf)) };
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

describe('renderReport', () => {
  it('renders a typical report on one page with accents, every amount, rules and disclaimer', async () => {
    const input = report();
    const { pdf, pages, info, text } = await inspect(input);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await renderPdfPage(pdf)).byteLength).toBeGreaterThan(10_000);

    expect(pages).toBe(1);
    expect(info.Author).toBe('Łukasz Żółć & Søren Ñúñez, LLP');
    expect(info.Creator).toBe('svc');
    expect(info.Title).toMatch(/^Estate tax/);
    expect(text).toContain('Łukasz Żółć & Søren Ñúñez, LLP');
    expect(text).toContain(input.calculatorName);
    for (const item of [...input.lineItems, ...input.totals]) expect(text).toContain(formatUsd(item.amount));
    for (const item of [...input.inputs, ...(input.extraOutputs ?? [])]) expect(text).toContain(item.value);
    for (const note of input.notes) expect(text).toContain(squash(note));
    expect(text).toContain(squash(input.disclaimer));
    // A family reads dates and rules in words; the rule set's id is for the firm's views only.
    expect(text).not.toContain(input.ruleSet.id);
    // Said once, in the header: the small print repeats it only beside "Rules as of".
    expect(text.split('1 January 2026')).toHaveLength(2);
    expect(text).toContain('RULES IN FORCE FROM 1 January 2026');
    expect(text).toContain(`PREPARED ON ${longDate(input.generatedAt.toISOString().slice(0, 10))}`);
    // The result id once, in the footer's small print, what a firm quotes back on a call.
    expect(text.split(input.resultId)).toHaveLength(2);
    expect(text).toMatch(new RegExp(`Result ${input.resultId} · Estate tax · .* Page 1 of 1`));
  });

  it('names the rules in words with their dates under the basis of calculation', async () => {
    const label = 'Federal rules for deaths in 2026; Washington rules for deaths on or after 1 July 2026';
    const input = report({
      ruleSet: { id: 'estate-tax-2026+WA-2026-07-01', taxYear: 2026, effectiveDate: '2026-07-01', label },
    });
    const { pages, text } = await inspect(input);
    expect(pages).toBe(1);
    expect(text).toContain(`Periods they cover: ${label}`);
    expect(text).not.toContain('estate-tax-2026+WA-2026-07-01');
  });

  it('prints the firm’s contact block, and its call to action and phone on every page', async () => {
    const contact = {
      phone: '+1 212 555 0143',
      email: 'office@halepartners.com',
      website: 'https://www.halepartners.com',
      address: '100 Main Street, Suite 400\nNew York, NY 10001',
      callToAction: 'Call us to discuss your estate plan',
    };
    const input = report({
      contact,
      lineItems: lines(30),
      rulesInWords: 'Federal and New York rules for deaths in 2026',
      rulesAsOf: '2026-11-28',
    });
    const { pages, text, pageTexts } = await inspect(input);
    expect(pages).toBe(2);
    // The header: how to reach the firm, the rules in words, and "Rules as of" the date of death.
    expect(pageTexts[0]).toContain('+1 212 555 0143 · office@halepartners.com · www.halepartners.com');
    expect(text).toContain('Estate tax Federal and New York rules for deaths in 2026');
    expect(text).toContain('RULES AS OF 28 November 2026');
    // The contact block, once: what to do and who, then how.
    expect(text).toContain(
      'NEXT STEP Call us to discuss your estate plan Łukasz Żółć & Søren Ñúñez, LLP 100 Main Street, Suite 400 New York, NY 10001 Phone +1 212 555 0143 E-mail office@halepartners.com Web www.halepartners.com',
    );
    expect(text).toContain('Rules: Federal and New York rules for deaths in 2026');
    // Every page says whom to call, above its small print.
    for (const page of pageTexts)
      expect(page).toContain(
        `Call us to discuss your estate plan · +1 212 555 0143 · office@halepartners.com Result ${input.resultId} · Estate tax`,
      );
    expect(pageTexts[1]).toContain('Page 2 of 2');
    // For looking at (git-ignored): a typical report (one page) and this long one as a client prints them.
    const { pdf } = await inspect({ ...input, lineItems: input.lineItems.slice(0, 8) });
    const dir = new URL('../../e2e/screenshots/pdf/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL('report-with-contact.pdf', dir), pdf);
    writeFileSync(new URL('report-with-contact.png', dir), await renderPdfPage(pdf, 1, 1.5));
    const long = await renderReport(input);
    writeFileSync(new URL('report-long-1.png', dir), await renderPdfPage(long, 1, 1.5));
    writeFileSync(new URL('report-long-2.png', dir), await renderPdfPage(long, 2, 1.5));
  });

  it('leaves the contact block and the footer line out when the firm has set no contact details', async () => {
    const { text } = await inspect(report());
    expect(text).not.toContain('NEXT STEP');
    expect(text).not.toContain('Phone');
  });

  it.each([30, 45, 60])('keeps %i line items to two pages, every amount shown', async (n) => {
    const input = report({ lineItems: lines(n) });
    const { pages, text } = await inspect(input);
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
    const { pages, text } = await inspect(input);
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

describe('the firm’s accent', () => {
  it.each([
    ['#7a1f3d', '#7a1f3d'],
    ['#ffd700', '#1f4e79'], // too pale on paper: the default stands in
    [undefined, '#1f4e79'],
    ['red', '#1f4e79'],
  ])('reportAccent(%j) → %s', (accent, used) => {
    expect(reportAccent(accent)).toBe(used);
  });

  it('draws the report’s rules, bar and headline in the firm’s accent, as its widget does', async () => {
    const accentPixels = async (accent?: string) => {
      const png = await renderPdfPage(await renderReport(report(accent ? { accent } : {})), 1, 1);
      const image = await loadImage(png);
      const canvas = createCanvas(image.width, image.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(image, 0, 0);
      const { data } = ctx.getImageData(0, 0, image.width, image.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i]! - 0x7a) + Math.abs(data[i + 1]! - 0x1f) + Math.abs(data[i + 2]! - 0x3d) < 12)
          n++;
      return n;
    };
    expect(await accentPixels()).toBe(0);
    expect(await accentPixels('#7a1f3d')).toBeGreaterThan(500);
  });
});

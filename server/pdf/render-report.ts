import type PDFDocumentType from 'pdfkit';
import { formatUsd } from '../../calculators/money.ts';
import { contrastOnWhite, HEX_COLOR } from '../../protocol/accent.ts';
import type { Block } from './block.ts';
import { contactBlock } from './contact-block.ts';
import { reportFonts } from './fonts.ts';
import { stampFooters } from './footer.ts';
import { headerBlock } from './header-block.ts';
import type { Ctx, Doc, Row, Tone } from './layout.ts';
import { type ReportInput, reportDate, reportWord } from './report-input.ts';
import { resultBlock } from './result-block.ts';
import { gridBlock, tableBlock } from './table-block.ts';
import { finePrintBlock, notesBlock } from './text-blocks.ts';
import { COLOR, DENSITIES, type Density, PAGE, REGULAR } from './theme.ts';

export type { ReportInput };

const LINE_TONE: Record<string, Tone> = { total: 'total', subtotal: 'strong', info: 'muted' };

/**
 * What the figures rest on, in the small print: the rules in words (with the law the labels cite),
 * the periods they cover, and the day they took effect when the header shows another ("Rules as
 * of" the date of death). The tax year is in the header.
 */
function basisOf(input: ReportInput): string {
  const w = (en: string) => reportWord(input, en);
  const { label, effectiveDate } = input.ruleSet;
  const cited = input.citations?.length ? `(${input.citations.join('; ')})` : '';
  const parts = [
    input.rulesInWords ? `${w('Rules')}: ${[input.rulesInWords, cited].filter(Boolean).join(' ')}.` : cited,
    label && label !== input.rulesInWords ? `${w('Periods they cover')}: ${label}.` : '',
    // Without "Rules as of" the header already says it.
    input.rulesAsOf ? `${w('Rules in force from')} ${reportDate(input, effectiveDate)}.` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `${w('Basis of calculation')}. ${parts.join(' ')}` : '';
}

function blocksFor(input: ReportInput): Block[] {
  const money = (items: { label: string; amount: number }[]) =>
    items.map((item) => ({ label: item.label, value: formatUsd(item.amount) }));
  const lines: Row[] = input.lineItems.map((item) => ({
    label: item.label,
    value: formatUsd(item.amount),
    tone: LINE_TONE[item.kind ?? ''] ?? 'plain',
  }));
  const w = (en: string) => reportWord(input, en);
  const table = (title: string, rows: Row[], caption?: [string, string]) =>
    tableBlock(w(title), rows, caption, reportWord(input, '{0} (continued)', w(title)));
  return [
    headerBlock(input),
    // Four or more inputs in two columns; fewer read better as a list.
    input.inputs.length >= 4 ? gridBlock(w('Your inputs'), input.inputs) : table('Your inputs', input.inputs),
    table('Calculation', lines, [w('Item'), w('Amount (USD)')]),
    resultBlock(money(input.totals), input.extraOutputs ?? [], w('Result')),
    contactBlock(input),
    notesBlock(input.notes, [w('Notes'), w('Notes (continued)')]),
    finePrintBlock([basisOf(input), input.disclaimer]),
  ];
}

/**
 * The loosest type that puts the report on one page; failing that, the loosest that keeps it to
 * two; failing that, the tightest. The 8% allowance covers space lost where blocks are kept
 * whole at a page break.
 */
/**
 * The firm's accent, as in its widget, when it reads on white (WCAG 4.5:1: it colours the headline
 * figure and headings); a paler one would leave the client squinting, so the default stands in.
 */
export function reportAccent(accent: string | undefined): string {
  return accent && HEX_COLOR.test(accent) && contrastOnWhite(accent) >= 4.5 ? accent : COLOR.accent;
}

function chooseDensity(doc: Doc, blocks: Block[]): Density {
  const usable = doc.page.height - PAGE.bottom - PAGE.top;
  const heights = DENSITIES.map((d) => {
    const ctx: Ctx = { doc, d, x: PAGE.side, width: doc.page.width - 2 * PAGE.side, accent: COLOR.accent };
    return { d, height: blocks.reduce((sum, block) => sum + block.height(ctx), 0) };
  });
  const onePage = heights.find((h) => h.height <= usable);
  const twoPages = heights.find((h) => h.height <= 2 * usable * 0.92);
  return (onePage ?? twoPages ?? heights[heights.length - 1])?.d ?? REGULAR;
}

/** pdfkit (with its font and compression code) is loaded by the first PDF, not at start-up. */
let pdfkit: Promise<typeof PDFDocumentType> | undefined;
const loadPdfkit = () => {
  pdfkit ??= import('pdfkit').then((m) => m.default);
  return pdfkit;
};

function createDocument(PDFDocument: typeof PDFDocumentType, input: ReportInput): Doc {
  const doc = new PDFDocument({
    size: 'LETTER',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.side, right: PAGE.side },
    bufferPages: true,
    info: {
      Title: `${input.calculatorName} — ${input.firmName}`,
      Author: input.firmName,
      Subject: reportWord(input, '{0} estimate, result {1}', input.calculatorName, input.resultId),
      Creator: 'svc',
      Producer: 'svc',
      // Fixed dates (and pdfkit's id derived from them) make equal inputs give equal bytes.
      CreationDate: input.generatedAt,
      ModDate: input.generatedAt,
    },
  });
  const fonts = reportFonts();
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  return doc;
}

/** Renders the report as a US Letter PDF: one page for a typical result, two for long ones. */
export async function renderReport(input: ReportInput): Promise<Buffer> {
  const doc = createDocument(await loadPdfkit(), input);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const blocks = blocksFor(input);
  const ctx: Ctx = {
    doc,
    d: chooseDensity(doc, blocks),
    x: PAGE.side,
    width: doc.page.width - 2 * PAGE.side,
    accent: reportAccent(input.accent),
  };
  doc.x = ctx.x;
  doc.y = PAGE.top;
  for (const block of blocks) block.draw(ctx);
  stampFooters(doc, input, ctx.accent);
  doc.end();
  return done;
}

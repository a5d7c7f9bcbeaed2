import PDFDocument from 'pdfkit';
import { reportFonts } from './fonts.ts';
import { formatUsd, isoDate } from './format.ts';

export { formatUsd };

export interface ReportInput {
  firmName: string;
  calculatorName: string;
  calculatorSlug: string;
  inputs: { label: string; value: string }[];
  lineItems: { label: string; amount: number; kind?: string }[];
  totals: { label: string; amount: number }[];
  extraOutputs?: { label: string; value: string }[];
  notes: string[];
  ruleSet: { id: string; taxYear: number; effectiveDate: string };
  disclaimer: string;
  resultId: string;
  generatedAt: Date;
}

const MARGIN = 54;
const INK = '#1d2433';
const MUTED = '#5b6475';
const RULE = '#d5dae3';
const ACCENT = '#1f4e79';

type Doc = PDFKit.PDFDocument;

function heading(doc: Doc, text: string): void {
  doc
    .moveDown(0.8)
    .font('bold')
    .fontSize(11)
    .fillColor(ACCENT)
    .text(text.toUpperCase(), { characterSpacing: 0.6 });
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.moveDown(0.4);
}

/** A label/value row with the value right-aligned; bold rows for totals. */
function row(doc: Doc, label: string, value: string, bold = false): void {
  const width = doc.page.width - 2 * MARGIN;
  if (doc.y > doc.page.height - MARGIN - 40) doc.addPage();
  const y = doc.y;
  doc
    .font(bold ? 'bold' : 'regular')
    .fontSize(bold ? 11 : 10)
    .fillColor(INK);
  doc.text(label, MARGIN, y, { width: width * 0.68 });
  const labelBottom = doc.y;
  doc.text(value, MARGIN + width * 0.68, y, { width: width * 0.32, align: 'right' });
  doc.x = MARGIN;
  doc.y = Math.max(labelBottom, doc.y) + 3;
}

function header(doc: Doc, input: ReportInput): void {
  doc.font('bold').fontSize(18).fillColor(INK).text(input.firmName, MARGIN, MARGIN);
  doc.font('regular').fontSize(10).fillColor(MUTED).text(`${input.calculatorName} — estimate report`);
  doc
    .moveDown(0.2)
    .fontSize(9)
    .text(`Prepared ${isoDate(input.generatedAt)} · Result ${input.resultId}`);
}

/** Renders the report as a US Letter PDF of one or two pages. */
export function renderReport(input: ReportInput): Promise<Buffer> {
  const fonts = reportFonts();
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: {
      Title: `${input.calculatorName} — ${input.firmName}`,
      Author: input.firmName,
      Creator: 'svc',
      Producer: 'svc',
      CreationDate: input.generatedAt,
    },
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  header(doc, input);
  heading(doc, 'Your inputs');
  for (const item of input.inputs) row(doc, item.label, item.value);
  heading(doc, 'Calculation');
  for (const item of input.lineItems) row(doc, item.label, formatUsd(item.amount), item.kind === 'total');
  heading(doc, 'Result');
  for (const total of input.totals) row(doc, total.label, formatUsd(total.amount), true);
  for (const extra of input.extraOutputs ?? []) row(doc, extra.label, extra.value);
  if (input.notes.length > 0) {
    heading(doc, 'Notes');
    doc.font('regular').fontSize(9).fillColor(INK);
    for (const note of input.notes) doc.text(`• ${note}`, { paragraphGap: 2 });
  }
  heading(doc, 'Rules and disclaimer');
  doc.font('regular').fontSize(9).fillColor(MUTED);
  doc.text(
    `Rule set ${input.ruleSet.id}, tax year ${input.ruleSet.taxYear}, effective ${input.ruleSet.effectiveDate}.`,
  );
  doc.moveDown(0.3).text(input.disclaimer);
  doc.end();
  return done;
}

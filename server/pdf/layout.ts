import { COLOR, type Density, PAGE } from './theme.ts';

export type Doc = PDFKit.PDFDocument;

/** The document plus the density chosen for it; every block measures and draws through this. */
export interface Ctx {
  doc: Doc;
  d: Density;
  x: number;
  width: number;
  /** The firm's accent (rules, bars, headings, the headline figure), readable on white. */
  accent: string;
}

/** plain · strong (bold) · muted (supporting figure) · total (bold, ruled above) · headline. */
export type Tone = 'plain' | 'strong' | 'muted' | 'total' | 'headline';

export interface Row {
  label: string;
  value: string;
  tone?: Tone;
}

const VALUE_SHARE = 0.36;
const COLUMN_GAP = 10;

const pageBottom = (doc: Doc): number => doc.page.height - PAGE.bottom;

/** Starts a new page when `height` would not fit; says whether it did. */
export function ensureSpace(ctx: Ctx, height: number): boolean {
  if (ctx.doc.y + height <= pageBottom(ctx.doc)) return false;
  ctx.doc.addPage();
  ctx.doc.x = ctx.x;
  ctx.doc.y = PAGE.top;
  return true;
}

const atPageTop = (ctx: Ctx): boolean => ctx.doc.y <= PAGE.top + 1;

export function hairline(ctx: Ctx, y: number, color: string = COLOR.rule, width = 0.5, inset = 0): void {
  ctx.doc
    .moveTo(ctx.x + inset, y)
    .lineTo(ctx.x + ctx.width - inset, y)
    .lineWidth(width)
    .strokeColor(color)
    .stroke();
}

function setRowFont(ctx: Ctx, tone: Tone): void {
  const bold = tone !== 'plain' && tone !== 'muted';
  const size = tone === 'headline' ? ctx.d.body + 2.5 : ctx.d.body;
  ctx.doc.font(bold ? 'bold' : 'regular').fontSize(size);
}

function columns(ctx: Ctx, inset: number): { labelWidth: number; valueWidth: number } {
  const inner = ctx.width - 2 * inset;
  const valueWidth = inner * VALUE_SHARE;
  return { labelWidth: inner - valueWidth - COLUMN_GAP, valueWidth };
}

export function rowHeight(ctx: Ctx, row: Row, inset = 0): number {
  setRowFont(ctx, row.tone ?? 'plain');
  const { labelWidth, valueWidth } = columns(ctx, inset);
  const label = ctx.doc.heightOfString(row.label, { width: labelWidth });
  const value = ctx.doc.heightOfString(row.value, { width: valueWidth });
  return Math.max(label, value) + 2 * ctx.d.pad;
}

/** A label on the left and its value right-aligned, so amounts line up on the decimal point. */
export function drawRow(ctx: Ctx, row: Row, opts: { inset?: number; separator?: boolean } = {}): void {
  const { doc, d } = ctx;
  const inset = opts.inset ?? 0;
  const tone = row.tone ?? 'plain';
  const height = rowHeight(ctx, row, inset);
  const { labelWidth, valueWidth } = columns(ctx, inset);
  const y = doc.y;
  if (tone === 'total') hairline(ctx, y, COLOR.ink, 0.75, inset);
  const color = tone === 'muted' ? COLOR.muted : tone === 'headline' ? ctx.accent : COLOR.ink;
  setRowFont(ctx, tone);
  doc.fillColor(color);
  doc.text(row.label, ctx.x + inset, y + d.pad, { width: labelWidth });
  doc.text(row.value, ctx.x + inset + labelWidth + COLUMN_GAP, y + d.pad, {
    width: valueWidth,
    align: 'right',
  });
  if (opts.separator ?? true) hairline(ctx, y + height, COLOR.rule, 0.4, inset);
  doc.x = ctx.x;
  doc.y = y + height;
}

export const headingHeight = (ctx: Ctx): number => ctx.d.gap + ctx.d.small * 1.2 + 7;

/** Small-caps style section title over a thin rule; no leading gap at the top of a page. */
export function drawHeading(ctx: Ctx, title: string): void {
  const { doc, d } = ctx;
  const top = atPageTop(ctx) ? doc.y : doc.y + d.gap;
  doc
    .font('bold')
    .fontSize(d.small)
    .fillColor(ctx.accent)
    .text(title.toUpperCase(), ctx.x, top, { characterSpacing: 0.5, lineBreak: false });
  // Without line breaks pdfkit leaves y where it was, so place the rule from the font size.
  const y = top + d.small * 1.2 + 3;
  hairline(ctx, y, ctx.accent, 0.75);
  doc.x = ctx.x;
  doc.y = y + 4;
}

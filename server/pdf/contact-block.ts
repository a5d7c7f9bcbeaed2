import type { Block } from './block.ts';
import { bareUrl } from './format.ts';
import { type Ctx, drawHeading, ensureSpace, headingHeight } from './layout.ts';
import { type ReportInput, reportWord } from './report-input.ts';
import { COLOR } from './theme.ts';

const INSET = 12;
const BAR = 3;
const COLUMN_GAP = 14;
/** The left column's share of the panel: the call to action, the firm and its office. */
const LEFT_SHARE = 0.55;

interface Line {
  text: string;
  bold?: boolean;
  accent?: boolean;
}

/** Left: what to do and who (call to action, firm, office); right: how (phone, e-mail, web). */
function columnsOf(input: ReportInput): [Line[], Line[]] {
  const c = input.contact ?? {};
  const left: Line[] = [];
  if (c.callToAction) left.push({ text: c.callToAction, bold: true, accent: true });
  left.push({ text: input.firmName, bold: true });
  if (c.address) left.push({ text: c.address });
  const right: Line[] = [];
  if (c.phone) right.push({ text: `${reportWord(input, 'Phone')}  ${c.phone}` });
  if (c.email) right.push({ text: `${reportWord(input, 'E-mail')}  ${c.email}` });
  if (c.website) right.push({ text: `${reportWord(input, 'Web')}  ${bareUrl(c.website)}` });
  return [left, right];
}

function widths(ctx: Ctx): [number, number] {
  const inner = ctx.width - 2 * INSET;
  const left = (inner - COLUMN_GAP) * LEFT_SHARE;
  return [left, inner - COLUMN_GAP - left];
}

const lineHeight = (ctx: Ctx, line: Line, width: number): number => {
  ctx.doc.font(line.bold ? 'bold' : 'regular').fontSize(line.accent ? ctx.d.body + 1.5 : ctx.d.body);
  return ctx.doc.heightOfString(line.text, { width }) + 2;
};

const columnHeight = (ctx: Ctx, lines: Line[], width: number): number =>
  lines.reduce((sum, l) => sum + lineHeight(ctx, l, width), 0);

function drawColumn(ctx: Ctx, lines: Line[], x: number, y: number, width: number): void {
  let at = y;
  for (const line of lines) {
    const h = lineHeight(ctx, line, width);
    ctx.doc.fillColor(line.accent ? ctx.accent : COLOR.ink);
    ctx.doc.text(line.text, x, at, { width });
    at += h;
  }
}

/**
 * "Next step": the firm's call to action and how to reach it, on a tinted panel kept whole, right
 * after the result, so a family that prints or forwards the report knows whom to call. Two
 * columns (what to do and who; how), so it costs a typical report no second page. Left out when
 * the firm has set no contact details.
 */
export function contactBlock(input: ReportInput): Block {
  const c = input.contact ?? {};
  const any = Boolean(c.phone || c.email || c.website || c.address || c.callToAction);
  const [left, right] = columnsOf(input);
  const panel = (ctx: Ctx) => {
    const [lw, rw] = widths(ctx);
    return Math.max(columnHeight(ctx, left, lw), columnHeight(ctx, right, rw)) + 2 * ctx.d.pad + 8;
  };
  return {
    height: (ctx) => (any ? headingHeight(ctx) + panel(ctx) + 4 : 0),
    draw(ctx) {
      if (!any) return;
      const { doc } = ctx;
      ensureSpace(ctx, headingHeight(ctx) + panel(ctx) + 4);
      drawHeading(ctx, reportWord(input, 'Next step'));
      const y = doc.y + 4;
      const height = panel(ctx);
      doc.rect(ctx.x, y, ctx.width, height).fill(COLOR.panel);
      doc.rect(ctx.x, y, BAR, height).fill(ctx.accent);
      const [lw, rw] = widths(ctx);
      const top = y + ctx.d.pad + 4;
      drawColumn(ctx, left, ctx.x + INSET, top, lw);
      // The phone level with the firm's name when a call to action heads the left column.
      const nudge = c.callToAction && left[0] ? lineHeight(ctx, left[0], lw) : 0;
      const rightTop = columnHeight(ctx, right, rw) + nudge <= height - 2 * ctx.d.pad - 8 ? top + nudge : top;
      drawColumn(ctx, right, ctx.x + INSET + lw + COLUMN_GAP, rightTop, rw);
      doc.x = ctx.x;
      doc.y = y + height;
    },
  };
}

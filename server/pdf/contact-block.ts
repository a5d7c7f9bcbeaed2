import type { Block } from './block.ts';
import { bareUrl } from './format.ts';
import { type Ctx, drawHeading, ensureSpace, headingHeight } from './layout.ts';
import { type ReportInput, reportWord } from './report-input.ts';
import { COLOR } from './theme.ts';

const INSET = 12;
const BAR = 3;

interface Line {
  text: string;
  bold?: boolean;
  accent?: boolean;
}

function linesOf(input: ReportInput): Line[] {
  const c = input.contact ?? {};
  const lines: Line[] = [];
  if (c.callToAction) lines.push({ text: c.callToAction, bold: true, accent: true });
  lines.push({ text: input.firmName, bold: true });
  if (c.phone) lines.push({ text: `${reportWord(input, 'Phone')}  ${c.phone}` });
  if (c.email) lines.push({ text: `${reportWord(input, 'E-mail')}  ${c.email}` });
  if (c.website) lines.push({ text: `${reportWord(input, 'Web')}  ${bareUrl(c.website)}` });
  if (c.address) lines.push({ text: c.address });
  return lines;
}

const lineHeight = (ctx: Ctx, line: Line): number => {
  ctx.doc.font(line.bold ? 'bold' : 'regular').fontSize(line.accent ? ctx.d.body + 1.5 : ctx.d.body);
  return ctx.doc.heightOfString(line.text, { width: ctx.width - 2 * INSET }) + 2;
};

/**
 * "Next step": the firm's call to action and how to reach it, on a tinted panel kept whole, right
 * after the result, so a family that prints or forwards the report knows whom to call. Left out
 * when the firm has set no contact details.
 */
export function contactBlock(input: ReportInput): Block {
  const c = input.contact ?? {};
  const any = Boolean(c.phone || c.email || c.website || c.address || c.callToAction);
  const lines = linesOf(input);
  const panel = (ctx: Ctx) => lines.reduce((sum, l) => sum + lineHeight(ctx, l), 0) + 2 * ctx.d.pad + 8;
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
      let at = y + ctx.d.pad + 4;
      for (const line of lines) {
        const h = lineHeight(ctx, line);
        doc.fillColor(line.accent ? ctx.accent : COLOR.ink);
        doc.text(line.text, ctx.x + INSET, at, { width: ctx.width - 2 * INSET });
        at += h;
      }
      doc.x = ctx.x;
      doc.y = y + height;
    },
  };
}

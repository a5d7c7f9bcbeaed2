import type { Block } from './block.ts';
import { isoDate } from './format.ts';
import { type Ctx, hairline } from './layout.ts';
import { type ReportInput, reportWord } from './report-input.ts';
import { COLOR } from './theme.ts';

const FIRM_SIZE = 13;
const TITLE_SIZE = 22;
const FIRM_SHARE = 0.68;

function firmHeight(ctx: Ctx, firm: string): number {
  ctx.doc.font('bold').fontSize(FIRM_SIZE);
  return ctx.doc.heightOfString(firm, { width: ctx.width * FIRM_SHARE });
}

function titleHeight(ctx: Ctx, title: string): number {
  ctx.doc.font('bold').fontSize(TITLE_SIZE);
  return ctx.doc.heightOfString(title, { width: ctx.width });
}

const metaHeight = (ctx: Ctx): number => ctx.d.small * 1.2 + 3 + ctx.d.body * 1.2;

/** Result id, generation date and tax year side by side: what a firm quotes back on a call. */
function drawMeta(ctx: Ctx, input: ReportInput): void {
  const { doc } = ctx;
  const cells: [string, string][] = [
    [reportWord(input, 'Result ID'), input.resultId],
    [reportWord(input, 'Generated (UTC)'), isoDate(input.generatedAt)],
    [reportWord(input, 'Rules as of'), input.ruleSet.effectiveDate],
  ];
  const cellWidth = ctx.width / cells.length;
  const y = doc.y;
  cells.forEach(([label, value], i) => {
    const x = ctx.x + i * cellWidth;
    doc.font('regular').fontSize(ctx.d.small).fillColor(COLOR.faint);
    doc.text(label.toUpperCase(), x, y, { width: cellWidth - 8, characterSpacing: 0.4, lineBreak: false });
    doc.font('regular').fontSize(ctx.d.body).fillColor(COLOR.ink);
    doc.text(value, x, y + ctx.d.small * 1.2 + 3, { width: cellWidth - 8, lineBreak: false, ellipsis: true });
  });
  doc.x = ctx.x;
  doc.y = y + metaHeight(ctx);
}

/** Firm name and document kind over an accent rule, then the calculator as the title. */
export function headerBlock(input: ReportInput): Block {
  return {
    height: (ctx) =>
      firmHeight(ctx, input.firmName) + 8 + 16 + titleHeight(ctx, input.calculatorName) + 8 + metaHeight(ctx),
    draw(ctx) {
      const { doc } = ctx;
      const top = doc.y;
      doc.font('bold').fontSize(FIRM_SIZE).fillColor(COLOR.ink);
      doc.text(input.firmName, ctx.x, top, { width: ctx.width * FIRM_SHARE });
      const firmBottom = doc.y;
      doc.font('regular').fontSize(ctx.d.small).fillColor(ctx.accent);
      doc.text(reportWord(input, 'ESTIMATE REPORT'), ctx.x, top + 4, {
        width: ctx.width,
        align: 'right',
        characterSpacing: 0.5,
      });
      const ruleY = Math.max(firmBottom, top + FIRM_SIZE * 1.2) + 6;
      hairline(ctx, ruleY, ctx.accent, 1.5);
      doc.font('bold').fontSize(TITLE_SIZE).fillColor(COLOR.ink);
      doc.text(input.calculatorName, ctx.x, ruleY + 16, { width: ctx.width });
      doc.y += 8;
      drawMeta(ctx, input);
    },
  };
}

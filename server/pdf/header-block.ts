import type { Block } from './block.ts';
import { contactLine, isoDate } from './format.ts';
import { type Ctx, hairline } from './layout.ts';
import { type ReportInput, reportDate, reportWord } from './report-input.ts';
import { COLOR } from './theme.ts';

const FIRM_SIZE = 13;
const TITLE_SIZE = 22;
const FIRM_SHARE = 0.68;

function firmHeight(ctx: Ctx, input: ReportInput): number {
  ctx.doc.font('bold').fontSize(FIRM_SIZE);
  const name = ctx.doc.heightOfString(input.firmName, { width: ctx.width * FIRM_SHARE });
  const line = contactLine(input.contact);
  if (!line) return name;
  ctx.doc.font('regular').fontSize(ctx.d.small + 0.5);
  return name + 2 + ctx.doc.heightOfString(line, { width: ctx.width });
}

function titleHeight(ctx: Ctx, input: ReportInput): number {
  ctx.doc.font('bold').fontSize(TITLE_SIZE);
  const title = ctx.doc.heightOfString(input.calculatorName, { width: ctx.width });
  if (!input.rulesInWords) return title;
  ctx.doc.font('regular').fontSize(ctx.d.body + 1);
  return title + 2 + ctx.doc.heightOfString(input.rulesInWords, { width: ctx.width });
}

const metaHeight = (ctx: Ctx): number => ctx.d.small * 1.2 + 3 + ctx.d.body * 1.2;

/**
 * The dates side by side. "Rules as of" is the day whose rules the figures follow (the date of
 * death), as on the lead page; a calculator without one shows the rules' first day under its
 * own name. The result id is in the footer's small print, not here.
 */
function metaCells(input: ReportInput): [string, string][] {
  return [
    [reportWord(input, 'Prepared on'), reportDate(input, isoDate(input.generatedAt))],
    input.rulesAsOf
      ? [reportWord(input, 'Rules as of'), reportDate(input, input.rulesAsOf)]
      : [reportWord(input, 'Rules in force from'), reportDate(input, input.ruleSet.effectiveDate)],
    [reportWord(input, 'Tax year'), String(input.ruleSet.taxYear)],
  ];
}

function drawMeta(ctx: Ctx, input: ReportInput): void {
  const { doc } = ctx;
  const cells = metaCells(input);
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

/** Firm name and how to reach it over an accent rule, then the calculator and its rules in words. */
export function headerBlock(input: ReportInput): Block {
  return {
    height: (ctx) => firmHeight(ctx, input) + 8 + 16 + titleHeight(ctx, input) + 8 + metaHeight(ctx),
    draw(ctx) {
      const { doc } = ctx;
      const top = doc.y;
      doc.font('bold').fontSize(FIRM_SIZE).fillColor(COLOR.ink);
      doc.text(input.firmName, ctx.x, top, { width: ctx.width * FIRM_SHARE });
      const line = contactLine(input.contact);
      if (line) {
        doc
          .font('regular')
          .fontSize(ctx.d.small + 0.5)
          .fillColor(COLOR.muted);
        doc.text(line, ctx.x, doc.y + 2, { width: ctx.width });
      }
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
      if (input.rulesInWords) {
        doc
          .font('regular')
          .fontSize(ctx.d.body + 1)
          .fillColor(COLOR.muted);
        doc.text(input.rulesInWords, ctx.x, doc.y + 2, { width: ctx.width });
      }
      doc.y += 8;
      drawMeta(ctx, input);
    },
  };
}

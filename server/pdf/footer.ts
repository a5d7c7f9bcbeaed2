import { contactLine } from './format.ts';
import type { Doc } from './layout.ts';
import { type ReportInput, reportWord } from './report-input.ts';
import { COLOR, PAGE } from './theme.ts';

/** "Call us to discuss your estate plan · +1 212 555 0143 · office@smithlaw.com", or nothing. */
const nextStepLine = (input: ReportInput): string =>
  [input.contact?.callToAction, contactLine({ phone: input.contact?.phone, email: input.contact?.email })]
    .filter(Boolean)
    .join('  ·  ');

/**
 * Stamps every buffered page with the firm's call to action and how to reach it, then, in small
 * print, who and what the report is and "Page i of n", so a loose second page still identifies
 * itself and still says whom to call. Runs after layout, when the page count is known.
 */
export function stampFooters(doc: Doc, input: ReportInput, accent: string): void {
  const nextStep = nextStepLine(input);
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const { width, height } = doc.page;
    const x = PAGE.side;
    const inner = width - 2 * PAGE.side;
    const y = height - PAGE.footerFromBottom;
    // Text below the bottom margin would otherwise make pdfkit start a new page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .moveTo(x, y - 6)
      .lineTo(x + inner, y - 6)
      .lineWidth(0.4)
      .strokeColor(COLOR.rule)
      .stroke();
    if (nextStep) {
      // Between the last line of content (the bottom margin) and the rule.
      doc.font('bold').fontSize(8).fillColor(accent);
      doc.text(nextStep, x, y - 19, { width: inner, height: doc.currentLineHeight(), ellipsis: true });
    }
    doc.font('regular').fontSize(7).fillColor(COLOR.faint);
    // The result id first: if anything is cut short, it is the firm name printed in the header.
    const left = reportWord(
      input,
      'Result {0} · {1} · {2}',
      input.resultId,
      input.calculatorName,
      input.firmName,
    );
    // One line whatever the firm's name: pdfkit cuts with an ellipsis only inside a set height.
    doc.text(left, x, y, { width: inner * 0.8, height: doc.currentLineHeight(), ellipsis: true });
    const page = reportWord(input, 'Page {0} of {1}', i - start + 1, count);
    doc.text(page, x, y, { width: inner, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
}

import type { Block } from './block.ts';
import { type Ctx, drawHeading, drawRow, ensureSpace, headingHeight, type Row, rowHeight } from './layout.ts';
import { COLOR } from './theme.ts';

const INSET = 12;
const BAR = 3;

/**
 * The totals on a tinted panel with an accent bar, never split across pages: the figure the
 * client came for. The last total is the headline; extra outputs follow in muted type.
 */
export function resultBlock(totals: Row[], extras: Row[], heading = 'Result'): Block {
  const rows: Row[] = [
    ...totals.map((row, i): Row => ({ ...row, tone: i === totals.length - 1 ? 'headline' : 'strong' })),
    ...extras.map((row): Row => ({ ...row, tone: 'muted' })),
  ];
  const panelHeight = (ctx: Ctx) =>
    rows.reduce((sum, row) => sum + rowHeight(ctx, row, INSET), 0) + 2 * ctx.d.pad + 4;
  return {
    height: (ctx) => (rows.length === 0 ? 0 : headingHeight(ctx) + panelHeight(ctx) + 4),
    draw(ctx) {
      if (rows.length === 0) return;
      const { doc } = ctx;
      ensureSpace(ctx, headingHeight(ctx) + panelHeight(ctx) + 4);
      drawHeading(ctx, heading);
      const y = doc.y + 4;
      const height = panelHeight(ctx);
      doc.rect(ctx.x, y, ctx.width, height).fill(COLOR.panel);
      doc.rect(ctx.x, y, BAR, height).fill(ctx.accent);
      doc.y = y + ctx.d.pad + 2;
      rows.forEach((row, i) => {
        // A rule only where the totals end and the supporting figures begin.
        drawRow(ctx, row, { inset: INSET, separator: i === totals.length - 1 && extras.length > 0 });
      });
      doc.y = y + height;
    },
  };
}

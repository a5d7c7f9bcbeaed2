import type { Block } from './block.ts';
import { type Ctx, drawHeading, drawRow, ensureSpace, headingHeight, type Row, rowHeight } from './layout.ts';
import { COLOR } from './theme.ts';

const captionHeight = (ctx: Ctx): number => ctx.d.small * 1.2 + 4;

function drawCaption(ctx: Ctx, [left, right]: [string, string]): void {
  const { doc } = ctx;
  const y = doc.y + 2;
  doc.font('regular').fontSize(ctx.d.small).fillColor(COLOR.faint);
  doc.text(left, ctx.x, y, { lineBreak: false });
  doc.text(right, ctx.x, y, { width: ctx.width, align: 'right', lineBreak: false });
  doc.x = ctx.x;
  doc.y = y + captionHeight(ctx) - 2;
}

/**
 * A titled label/value table that may run onto the next page; there it repeats its title
 * ("… (continued)") and column captions so a reader never meets bare figures.
 */
export function tableBlock(
  title: string,
  rows: Row[],
  caption?: [string, string],
  continued = `${title} (continued)`,
): Block {
  const top = (ctx: Ctx) => headingHeight(ctx) + (caption ? captionHeight(ctx) : 0);
  const start = (ctx: Ctx, heading: string) => {
    drawHeading(ctx, heading);
    if (caption) drawCaption(ctx, caption);
  };
  return {
    height: (ctx) => top(ctx) + rows.reduce((sum, row) => sum + rowHeight(ctx, row), 0),
    draw(ctx) {
      if (rows.length === 0) return;
      // Keep the title with at least its first two rows.
      const lead = rows.slice(0, 2).reduce((sum, row) => sum + rowHeight(ctx, row), 0);
      ensureSpace(ctx, top(ctx) + lead);
      start(ctx, title);
      rows.forEach((row, i) => {
        if (ensureSpace(ctx, rowHeight(ctx, row))) start(ctx, continued);
        drawRow(ctx, row, { separator: i < rows.length - 1 });
      });
    },
  };
}

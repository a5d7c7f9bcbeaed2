import type { Block } from './block.ts';
import {
  type Ctx,
  drawHeading,
  drawRow,
  ensureSpace,
  hairline,
  headingHeight,
  type Row,
  rowHeight,
} from './layout.ts';
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

const GRID_GAP = 24;

/**
 * A short label/value list in two columns, read down the left column then the right: a report's
 * inputs in half the height, so a typical report keeps to one page. Kept whole.
 */
export function gridBlock(title: string, rows: Row[]): Block {
  const half = Math.ceil(rows.length / 2);
  const pairs = Array.from({ length: half }, (_, i) => [rows[i], rows[half + i]] as const);
  const column = (ctx: Ctx, i: number): Ctx => {
    const width = (ctx.width - GRID_GAP) / 2;
    return { ...ctx, x: ctx.x + i * (width + GRID_GAP), width };
  };
  const pairHeight = (ctx: Ctx, pair: readonly (Row | undefined)[]) =>
    Math.max(...pair.map((row, i) => (row ? rowHeight(column(ctx, i), row) : 0)));
  const height = (ctx: Ctx) =>
    rows.length === 0 ? 0 : headingHeight(ctx) + pairs.reduce((sum, pair) => sum + pairHeight(ctx, pair), 0);
  return {
    height,
    draw(ctx) {
      if (rows.length === 0) return;
      const { doc } = ctx;
      ensureSpace(ctx, height(ctx));
      drawHeading(ctx, title);
      pairs.forEach((pair, n) => {
        const y = doc.y;
        const h = pairHeight(ctx, pair);
        pair.forEach((row, i) => {
          if (!row) return;
          const col = column(ctx, i);
          doc.y = y;
          drawRow(col, row, { separator: false });
          if (n < pairs.length - 1) hairline(col, y + h, COLOR.rule, 0.4);
        });
        doc.x = ctx.x;
        doc.y = y + h;
      });
    },
  };
}

import type { Block } from './block.ts';
import { type Ctx, drawHeading, ensureSpace, headingHeight } from './layout.ts';
import { COLOR } from './theme.ts';

const BULLET_INDENT = 12;
const NOTE_GAP = 3;
const BOX_PAD = 9;

function noteHeight(ctx: Ctx, note: string): number {
  ctx.doc.font('regular').fontSize(ctx.d.body - 0.5);
  return ctx.doc.heightOfString(note, { width: ctx.width - BULLET_INDENT }) + NOTE_GAP;
}

/** Bulleted notes with a hanging indent, so wrapped lines align with the text, not the bullet. */
export function notesBlock(notes: string[], [heading, continued] = ['Notes', 'Notes (continued)']): Block {
  return {
    height: (ctx) =>
      notes.length === 0 ? 0 : headingHeight(ctx) + 4 + notes.reduce((s, n) => s + noteHeight(ctx, n), 0),
    draw(ctx) {
      if (notes.length === 0) return;
      const { doc } = ctx;
      ensureSpace(ctx, headingHeight(ctx) + 4 + noteHeight(ctx, notes[0] ?? ''));
      drawHeading(ctx, heading);
      doc.y += 4;
      for (const note of notes) {
        const height = noteHeight(ctx, note);
        if (ensureSpace(ctx, height)) drawHeading(ctx, continued);
        const y = doc.y;
        doc.fillColor(ctx.accent).text('•', ctx.x + 2, y, { lineBreak: false });
        doc.fillColor(COLOR.ink).text(note, ctx.x + BULLET_INDENT, y, { width: ctx.width - BULLET_INDENT });
        doc.x = ctx.x;
        doc.y = y + height;
      }
    },
  };
}

function disclaimerTextHeight(ctx: Ctx, text: string): number {
  ctx.doc.font('regular').fontSize(ctx.d.small + 0.5);
  return ctx.doc.heightOfString(text, { width: ctx.width - 2 * BOX_PAD, lineGap: 1 });
}

/** The disclaimer in a hairline box, kept whole on one page. */
export function disclaimerBlock(text: string): Block {
  const boxHeight = (ctx: Ctx) => disclaimerTextHeight(ctx, text) + 2 * BOX_PAD;
  return {
    height: (ctx) => ctx.d.gap + boxHeight(ctx),
    draw(ctx) {
      const { doc } = ctx;
      ensureSpace(ctx, ctx.d.gap + boxHeight(ctx));
      const y = doc.y + ctx.d.gap;
      const height = boxHeight(ctx);
      doc.rect(ctx.x, y, ctx.width, height).lineWidth(0.5).strokeColor(COLOR.rule).stroke();
      doc
        .font('regular')
        .fontSize(ctx.d.small + 0.5)
        .fillColor(COLOR.muted)
        .text(text, ctx.x + BOX_PAD, y + BOX_PAD, { width: ctx.width - 2 * BOX_PAD, lineGap: 1 });
      doc.x = ctx.x;
      doc.y = y + height;
    },
  };
}

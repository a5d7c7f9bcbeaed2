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

const FINE_GAP = 4;

function textHeight(ctx: Ctx, text: string): number {
  ctx.doc.font('regular').fontSize(ctx.d.small + 0.5);
  return ctx.doc.heightOfString(text, { width: ctx.width - 2 * BOX_PAD, lineGap: 1 });
}

/**
 * The small print in a hairline box kept whole on one page: what the figures rest on (the rules,
 * the law cited) and then the disclaimer.
 */
export function finePrintBlock(paragraphs: string[]): Block {
  const texts = paragraphs.filter(Boolean);
  const boxHeight = (ctx: Ctx) =>
    texts.reduce((sum, t) => sum + textHeight(ctx, t), 0) + (texts.length - 1) * FINE_GAP + 2 * BOX_PAD;
  return {
    height: (ctx) => ctx.d.gap + boxHeight(ctx),
    draw(ctx) {
      const { doc } = ctx;
      ensureSpace(ctx, ctx.d.gap + boxHeight(ctx));
      const y = doc.y + ctx.d.gap;
      const height = boxHeight(ctx);
      doc.rect(ctx.x, y, ctx.width, height).lineWidth(0.5).strokeColor(COLOR.rule).stroke();
      let at = y + BOX_PAD;
      for (const text of texts) {
        doc
          .font('regular')
          .fontSize(ctx.d.small + 0.5)
          .fillColor(COLOR.muted)
          .text(text, ctx.x + BOX_PAD, at, { width: ctx.width - 2 * BOX_PAD, lineGap: 1 });
        at += textHeight(ctx, text) + FINE_GAP;
      }
      doc.x = ctx.x;
      doc.y = y + height;
    },
  };
}

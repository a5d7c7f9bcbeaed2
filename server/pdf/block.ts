import type { Ctx } from './layout.ts';

/** A piece of the report that can say how tall it will be before drawing itself. */
export interface Block {
  height(ctx: Ctx): number;
  draw(ctx: Ctx): void;
}

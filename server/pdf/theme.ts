import { DEFAULT_ACCENT } from '../../protocol/accent.ts';

/** Page geometry (points; US Letter is 612 × 792) and colours shared by every block. */
export const PAGE = { side: 60, top: 54, bottom: 72, footerFromBottom: 44 } as const;

export const COLOR = {
  ink: '#1b2230',
  muted: '#5d6677',
  faint: '#8a93a3',
  rule: '#dfe3ea',
  accent: DEFAULT_ACCENT,
  panel: '#f2f5f9',
} as const;

/** Type sizes and spacing; the tighter sets let long calculations keep to one or two pages. */
export interface Density {
  body: number;
  small: number;
  pad: number;
  gap: number;
}

export const REGULAR: Density = { body: 9.5, small: 7.5, pad: 3.6, gap: 18 };
const COMPACT: Density = { body: 8.5, small: 7, pad: 2.2, gap: 13 };
/** The floor: 8 pt is still comfortable to read on paper; longer reports take more pages. */
const TIGHT: Density = { body: 8, small: 6.5, pad: 1.4, gap: 10 };

/** Loosest first: the renderer takes the first that fits. */
export const DENSITIES: readonly Density[] = [REGULAR, COMPACT, TIGHT];

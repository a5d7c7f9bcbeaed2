/**
 * Container widths (CSS px) at which each calculator's first height is measured; between two the
 * loader interpolates, outside them it takes the nearest.
 */
export const HEIGHT_WIDTHS = [320, 400, 480, 560, 640, 720, 800];

/**
 * Each calculator's height (CSS px) as it first appears, at HEIGHT_WIDTHS. Written by
 * `npm run measure:heights`; do not edit by hand.
 */
export const HEIGHTS: Record<string, number[]> = {};

/**
 * The accent every widget and PDF draws when a firm has not chosen one (widget/styles.css sets the
 * same colour as `--accent`): the portal shows and previews this, so a firm sees what visitors see.
 */
export const DEFAULT_ACCENT = '#1f4e79';

/** `#1f4e79` or `#17a`: the only accent form the widget and the PDF take. */
export const HEX_COLOR = /^#(?:[0-9a-f]{3}){1,2}$/i;

/** WCAG relative luminance of a hex colour (0 black … 1 white). */
function relativeLuminance(hex: string): number {
  const full = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (c) => c + c) : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two hex colours, in either order (1 … 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** White or ink on the accent, whichever reads better: the widget's buttons and the portal's preview. */
export const onAccent = (hex: string): string => (relativeLuminance(hex) > 0.35 ? '#10151c' : '#ffffff');

/** WCAG contrast of a hex colour against white paper (1 … 21). */
export const contrastOnWhite = (hex: string): number => contrastRatio(hex, '#ffffff');

import { onAccent as textOnAccent } from '../widget/theme.ts';

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * What the widget does with an accent: buttons filled with it carry white or ink text, whichever
 * reads better (widget/theme.ts picks it, and the same function decides here), and links and
 * focus rings draw it on white.
 */
export function accentContrast(hex: string) {
  const onAccent = textOnAccent(hex);
  const buttons = contrastRatio(hex, onAccent);
  const onWhite = contrastRatio(hex, '#ffffff');
  return { onAccent, buttons, onWhite, buttonsPass: buttons >= 4.5, onWhitePass: onWhite >= 3 };
}

import { contrastRatio, onAccent as textOnAccent } from '../protocol/accent.ts';

/**
 * What the widget does with an accent: buttons filled with it carry white or ink text, whichever
 * reads better (protocol/accent.ts picks it for both the widget and this preview), and links and
 * focus rings draw it on white.
 */
export function accentContrast(hex: string) {
  const onAccent = textOnAccent(hex);
  const buttons = contrastRatio(hex, onAccent);
  const onWhite = contrastRatio(hex, '#ffffff');
  return { onAccent, buttons, onWhite, buttonsPass: buttons >= 4.5, onWhitePass: onWhite >= 3 };
}

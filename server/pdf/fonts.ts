import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let cache: { regular: Buffer; bold: Buffer } | undefined;

/**
 * DejaVu Sans (Latin Extended, Greek, Cyrillic: "Łukasz Żółć", "Søren Ñúñez"), read once per
 * process from the installed package and embedded (subset) in every report.
 */
export function reportFonts(): { regular: Buffer; bold: Buffer } {
  cache ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return cache;
}

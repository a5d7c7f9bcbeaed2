import { HEX_COLOR, onAccent } from '../protocol/accent.ts';

/** The look the host page asked for (`data-theme`, `data-accent`, `data-radius`, `data-font`), from the iframe's hash. */
export interface Theme {
  theme?: string;
  accent?: string;
  radius?: string;
  font?: string;
}

/** Sets the accent when it is a hex colour; returns whether it did. */
export function applyAccent(root: HTMLElement, accent: string | undefined): boolean {
  if (!accent || !HEX_COLOR.test(accent)) return false;
  root.style.setProperty('--accent', accent);
  root.style.setProperty('--on-accent', onAccent(accent));
  return true;
}

/**
 * Applies the host's choices as CSS custom properties through the CSSOM (the page's CSP allows
 * no inline styles, and needs none for this). Unknown values are ignored, never passed through.
 */
export function applyTheme(root: HTMLElement, t: Theme): void {
  root.dataset.theme = t.theme === 'dark' || t.theme === 'light' ? t.theme : 'auto';
  applyAccent(root, t.accent);
  const radius = Number(t.radius);
  if (t.radius && Number.isFinite(radius) && radius >= 0 && radius <= 24)
    root.style.setProperty('--radius', `${radius}px`);
  // A font-family list only: letters, digits, spaces, quotes, commas and hyphens.
  if (t.font && t.font.length <= 200 && /^[\w\s"',-]+$/.test(t.font))
    root.style.setProperty('--font', t.font);
}

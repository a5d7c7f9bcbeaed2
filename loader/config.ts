/** Written into loader.js by the embed host when it serves the file (server/embed-host.ts). */
export const API_URL_PLACEHOLDER = '__SVC_API_URL__';

export interface LoaderConfig {
  licenseKey: string;
  /** API base without `/v1`. */
  apiUrl: string;
  /** Origin of loader.js, which is also the origin of the widget pages. */
  embedOrigin: string;
  /** Calculator for containers that do not name one (`data-calculator`, default `estate-tax`). */
  defaultCalculator: string;
  /** CSS selector of the containers (`data-target`); unset means `[data-svc-calculator]`. */
  target?: string;
  /** `data-mount="manual"`: mount nothing on load; the page calls `Svc.mount` (single-page apps). */
  manual?: boolean;
}

/** `URL.canParse` is too new for every host page's visitors. */
function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Reads the loader's own `<script>` tag:
 * `data-key` (required), `data-calculator`, `data-target` (a CSS selector), `data-api`,
 * `data-mount="manual"`.
 * Returns undefined, and says why in the console, when the loader cannot start.
 *
 * @example
 * ```html
 * <script src="https://embed.svc.example/loader.js" data-key="SVC-…" data-target="#calc" async></script>
 * ```
 */
export function configFromScript(script: HTMLScriptElement | null, apiUrl: string): LoaderConfig | undefined {
  const src = script?.src ? parseUrl(script.src) : undefined;
  if (!script || !src) {
    console.error('[svc] loader.js could not find its own <script src> tag.');
    return undefined;
  }
  const licenseKey = script.dataset.key?.trim();
  if (!licenseKey) {
    console.error('[svc] loader.js needs data-key="SVC-…" (your license key) on its <script> tag.');
    return undefined;
  }
  // Compared by prefix: the embed host rewrites every copy of the full placeholder in loader.js.
  const injected = apiUrl.startsWith('__') ? '' : apiUrl;
  const api = (script.dataset.api ?? injected).replace(/\/+$/, '');
  if (!/^https?:$/.test(parseUrl(api)?.protocol ?? '')) {
    console.error('[svc] loader.js does not know the API URL: set data-api="https://…" on its <script> tag.');
    return undefined;
  }
  return {
    licenseKey,
    apiUrl: api,
    embedOrigin: src.origin,
    defaultCalculator: script.dataset.calculator ?? 'estate-tax',
    ...(script.dataset.target ? { target: script.dataset.target } : {}),
    ...(script.dataset.mount === 'manual' ? { manual: true } : {}),
  };
}

/** The containers to mount into: `data-target` matches, else `[data-svc-calculator]` elements. */
export function findTargets(doc: Document, config: LoaderConfig): HTMLElement[] {
  const selector = config.target ?? '[data-svc-calculator]';
  try {
    return [...doc.querySelectorAll<HTMLElement>(selector)];
  } catch {
    console.error(`[svc] data-target="${selector}" is not a valid CSS selector.`);
    return [];
  }
}

/** Written into loader.js by the embed host when it serves the file (server/infra/embed-host.ts). */
export const API_URL_PLACEHOLDER = '__SVC_API_URL__';

/** The look the host page asks for; passed to each iframe in its URL hash. */
interface ThemeConfig {
  theme?: string;
  accent?: string;
  radius?: string;
  /** `inherit`: the container's computed font family. */
  font?: string;
  /** `en`, `es` or `auto` (the visitor's browser language); the widget falls back to English. */
  lang?: string;
}

export interface LoaderConfig extends ThemeConfig {
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
  /** `data-state`: pre-selects the state in the form (two letters). */
  state?: string;
  /** `data-legacy-events="off"` stops the two legacy resize aliases (on by default). */
  legacyEvents: boolean;
}

/** What a container may set for itself (`data-svc-lang`) over the script (`data-lang`). */
export const PER_WIDGET = ['state', 'theme', 'accent', 'radius', 'lang'] as const;

/** `URL.canParse` is too new for every host page's visitors. */
function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Reads the loader's own `<script>` tag (the attribute table is in the README):
 * `data-key` (required), `data-calculator`, `data-state`, `data-theme`, `data-accent`, `data-radius`,
 * `data-lang` (a container may set its own: `data-svc-state`, `data-svc-theme`, `data-svc-accent`,
 * `data-svc-radius`, `data-svc-lang`), `data-font`, `data-target`, `data-mount`, `data-api`,
 * `data-legacy-events`.
 * Returns undefined, and says why in the console, when the loader cannot start.
 *
 * @example
 * ```html
 * <script src="https://embed.svc.example/loader.js" data-key="svc_pk_…" data-target="#calc" async></script>
 * ```
 */
export function configFromScript(script: HTMLScriptElement | null, apiUrl: string): LoaderConfig | undefined {
  const src = parseUrl(script?.src ?? '');
  const d = script?.dataset ?? {};
  const licenseKey = d.key?.trim();
  // Compared by prefix: the embed host rewrites every copy of the full placeholder in loader.js.
  const api = (d.api ?? (apiUrl.startsWith('__') ? '' : apiUrl)).replace(/\/+$/, '');
  if (!src || !licenseKey || !/^https?:$/.test(parseUrl(api)?.protocol ?? '')) {
    console.error('[svc] loader.js needs data-key="svc_pk_…" (and data-api)');
    return undefined;
  }
  const config: LoaderConfig = {
    licenseKey,
    apiUrl: api,
    embedOrigin: src.origin,
    defaultCalculator: d.calculator ?? 'estate-tax',
    manual: d.mount === 'manual',
    legacyEvents: d.legacyEvents !== 'off',
  };
  for (const key of ['target', 'font', ...PER_WIDGET] as const) {
    if (d[key]) config[key] = d[key];
  }
  return config;
}

/** The containers to mount into: `data-target` matches, else `[data-svc-calculator]` elements. */
export function findTargets(doc: Document, config: LoaderConfig): HTMLElement[] {
  const selector = config.target ?? '[data-svc-calculator]';
  try {
    return [...doc.querySelectorAll<HTMLElement>(selector)];
  } catch {
    console.error(`[svc] bad data-target "${selector}"`);
    return [];
  }
}

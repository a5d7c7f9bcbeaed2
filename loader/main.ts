import { API_URL_PLACEHOLDER, configFromScript, findTargets, type LoaderConfig } from './config.ts';
import { createLoader, type SvcApi } from './loader.ts';

declare global {
  interface Window {
    Svc?: SvcApi;
  }
}

function mountAll(svc: SvcApi, config: LoaderConfig, script: HTMLScriptElement): void {
  if (config.manual) return;
  const targets = findTargets(document, config);
  if (targets.length > 0) {
    for (const target of targets) svc.mount(target);
  } else if (config.target) {
    console.error(`[svc] data-target="${config.target}" matched no element.`);
  } else {
    // No container on the page: the widget goes right after the script tag.
    const container = document.createElement('div');
    script.insertAdjacentElement('afterend', container);
    svc.mount(container);
  }
}

/**
 * Entry of loader.js (one IIFE). Runs once even if included twice, does nothing without a DOM,
 * and never throws into the host page.
 *
 * @example
 * ```html
 * <div data-svc-calculator="estate-tax"></div>
 * <script src="https://embed.svc.example/loader.js" data-key="SVC-…" async></script>
 * ```
 */
function start(): void {
  if (typeof window === 'undefined' || typeof document === 'undefined' || window.Svc) return;
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[data-key][src*="loader"]');
  const config = configFromScript(script, API_URL_PLACEHOLDER);
  if (!config || !script) return;
  const svc = createLoader(config);
  window.Svc = svc;
  const run = () => {
    try {
      mountAll(svc, config, script);
    } catch (error) {
      console.error('[svc] could not mount the widgets', error);
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}

try {
  start();
} catch (error) {
  console.error('[svc] loader failed to start', error);
}

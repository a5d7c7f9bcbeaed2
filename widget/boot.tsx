import { render } from 'preact';
import { type Credentials, sendView } from './api.ts';
import { App } from './app.tsx';
import { createBridge } from './bridge.ts';
import type { WidgetCalculator } from './forms/types.ts';
import { type Catalogue, lang, t, useCatalogue } from './i18n/t.ts';
import { watchHeight } from './resize.ts';
import { applyAccent, applyTheme } from './theme.ts';
import './styles.css';

/**
 * Starts one widget page (`/w/<slug>.html#widgetId=…&host=…` inside the loader's iframe): theme
 * from the hash, `svc-hello`, the form, height reports. `svc-ready` follows only when the session
 * arrives over the port, so the host hears it once the widget can actually calculate.
 */
export async function boot(
  calc: WidgetCalculator,
  spanish: () => Promise<{ default: Catalogue }>,
): Promise<void> {
  const params = new URLSearchParams(location.hash.slice(1));
  // `lang`: en, es or auto (the browser's language); English unless Spanish is asked for and loads.
  // An English page starts at once (no await on its way); a chunk that fails to load leaves English.
  const asked = params.get('lang');
  useCatalogue(
    /^es\b/i.test(asked === 'auto' ? navigator.language : `${asked}`)
      ? (await spanish().catch(() => undefined))?.default
      : undefined,
  );
  const root = document.getElementById('app');
  if (!root) return;
  const html = document.documentElement;
  // English leaves both as the page has them.
  html.lang = lang;
  document.title = t(document.title);
  applyTheme(html, Object.fromEntries(params));
  const hostAccent = params.has('accent');
  const bridge = createBridge();
  // Hello first: the loader's port and session cross the process boundary while the form renders.
  // Their messages are tasks, so they cannot arrive before this task has registered its listeners.
  bridge?.hello();
  const state = params.get('state');
  const slug = calc.core.slug;
  // Ready: tell the host page, and count one view (best effort, once per widget per session).
  const onReady = (credentials: Credentials, page: string | undefined) => {
    bridge?.emit('svc-ready', { calculator: slug });
    sendView(credentials, slug, page);
  };
  render(<App calc={calc} bridge={bridge} preset={state ? { state } : {}} onReady={onReady} />, root);
  if (!bridge) return;
  bridge.onSession((message) => {
    // The firm's own accent, unless the page chose one.
    if (message.type === 'svc-init' && !hostAccent) applyAccent(html, message.firm?.accent);
  });
  const legacy = params.get('legacy') !== 'off';
  watchHeight(
    document.body,
    (height) => {
      bridge.emit('svc-resize', { height });
      // The names older host pages listen for, unless the page turned them off (data-legacy-events="off").
      if (legacy)
        for (const type of ['svc-embed-resize', 'alt-embed-resize'] as const) bridge.emit(type, { height });
    },
    () =>
      bridge.emit('svc-error', {
        reason: 'resize_loop',
        message:
          'The widget’s height kept changing, so resizing stopped: check the CSS around its container.',
      }),
  );
}

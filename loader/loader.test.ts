import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoaderConfig } from './config.ts';
import { createLoader, type Loader, READY_TIMEOUT_MS } from './loader.ts';
import { API, CONSENT, EMBED, fakeFrame, granted, offline, refused, stubActivate } from './testing.ts';

const config: LoaderConfig = {
  licenseKey: 'svc_pk_test',
  apiUrl: API,
  embedOrigin: EMBED,
  defaultCalculator: 'estate-tax',
  legacyEvents: true,
};

let svc: Loader;

function mounted(calculator = 'rmd', element = document.createElement('div')) {
  document.body.appendChild(element);
  const id = svc.mount(element, calculator)!;
  const iframe = element.querySelector('iframe')!;
  return { id, element, iframe, frame: fakeFrame(iframe, id) };
}

/** Every event the host page sees, through both channels. */
function record(element: HTMLElement) {
  const dom: { type: string; detail: unknown }[] = [];
  const api: { type: string; payload: unknown }[] = [];
  for (const type of ['svc-ready', 'svc-resize', 'svc-embed-resize', 'svc-result', 'svc-error'] as const) {
    element.addEventListener(type, (e) => dom.push({ type, detail: (e as CustomEvent).detail }));
    svc.on(type, (payload, meta) => {
      if (meta.element === element) api.push({ type, payload });
    });
  }
  return { dom, api, types: () => api.map((e) => e.type) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  document.body.innerHTML = '';
  vi.spyOn(console, 'error').mockImplementation(() => {});
  svc = createLoader(config);
});
afterEach(() => {
  svc.destroy();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('mounting', () => {
  it('puts an iframe of the embed origin in the container, with the look in its hash and no key', () => {
    stubActivate(granted());
    svc.destroy();
    svc = createLoader({ ...config, theme: 'dark', accent: '#1f4e79', state: 'NY', legacyEvents: false });
    const { id, element, iframe } = mounted('rmd');
    const url = new URL(iframe.src);
    expect(url.origin + url.pathname).toBe(`${EMBED}/w/rmd.html`);
    const hash = Object.fromEntries(new URLSearchParams(url.hash.slice(1)));
    expect(hash).toEqual({
      widgetId: id,
      host: window.location.origin,
      theme: 'dark',
      accent: '#1f4e79',
      state: 'NY',
      legacy: 'off',
    });
    expect(iframe.src).not.toContain('svc_pk_test');
    expect(svc.mount(element)).toBe(id);
    expect(element.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('lets a container’s data-svc-theme, data-svc-accent and data-svc-state win over the script’s', () => {
    stubActivate(granted());
    svc.destroy();
    svc = createLoader({ ...config, theme: 'light', accent: '#1f4e79', state: 'NY' });
    const element = document.createElement('div');
    element.dataset.svcTheme = 'dark';
    element.dataset.svcAccent = '#aa3300';
    element.dataset.svcState = 'CA';
    const hashOf = (iframe: HTMLIFrameElement) => new URLSearchParams(new URL(iframe.src).hash.slice(1));
    const own = hashOf(mounted('rmd', element).iframe);
    expect([own.get('theme'), own.get('accent'), own.get('state')]).toEqual(['dark', '#aa3300', 'CA']);
    const plain = hashOf(mounted('rmd').iframe);
    expect([plain.get('theme'), plain.get('accent'), plain.get('state')]).toEqual(['light', '#1f4e79', 'NY']);
  });

  it('passes the language on: a container’s data-svc-lang over the script’s data-lang, which defaults to none', () => {
    stubActivate(granted());
    svc.destroy();
    svc = createLoader({ ...config, lang: 'auto' });
    const element = document.createElement('div');
    element.dataset.svcLang = 'es';
    const langOf = (iframe: HTMLIFrameElement) =>
      new URLSearchParams(new URL(iframe.src).hash.slice(1)).get('lang');
    expect(langOf(mounted('rmd', element).iframe)).toBe('es');
    expect(langOf(mounted('rmd').iframe)).toBe('auto');
    svc.destroy();
    svc = createLoader(config);
    expect(langOf(mounted('rmd').iframe)).toBeNull();
  });

  it('passes the container’s computed font family for data-font="inherit", a family list as given', () => {
    stubActivate(granted());
    svc.destroy();
    svc = createLoader({ ...config, font: 'inherit' });
    const element = document.createElement('div');
    element.style.fontFamily = 'Georgia, "Times New Roman", serif';
    const fontOf = (iframe: HTMLIFrameElement) =>
      new URLSearchParams(new URL(iframe.src).hash.slice(1)).get('font');
    expect(fontOf(mounted('rmd', element).iframe)).toBe('Georgia, "Times New Roman", serif');
    svc.destroy();
    svc = createLoader({ ...config, font: 'Lato, sans-serif' });
    expect(fontOf(mounted('rmd').iframe)).toBe('Lato, sans-serif');
  });

  it('refuses a calculator name that is not a slug with an svc-error', () => {
    stubActivate(granted());
    const element = document.createElement('div');
    const seen = record(element);
    expect(svc.mount(element, '../admin')).toBeUndefined();
    expect(element.querySelector('iframe')).toBeNull();
    expect(seen.dom).toEqual([
      { type: 'svc-error', detail: expect.objectContaining({ reason: 'invalid_input' }) },
    ]);
  });

  it('names the iframe after the calculator once its page says hello', () => {
    stubActivate(granted());
    const { iframe, frame } = mounted('rmd');
    frame.hello();
    expect(iframe.title).toBe('Required minimum distribution calculator');
  });
});

describe('handshake and events', () => {
  it('answers svc-hello with a port on the embed origin, then the session and the firm over it', async () => {
    const fetch = stubActivate(granted());
    const { element, frame } = mounted();
    const seen = record(element);
    frame.hello();
    expect(frame.posted).toEqual([
      { data: { type: 'svc-connect', v: 1, widgetId: expect.any(String) }, targetOrigin: EMBED },
    ]);
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    expect(frame.received[0]).toMatchObject({
      type: 'svc-init',
      apiUrl: API,
      token: expect.any(String),
      firm: { name: 'Smith & Lee LLP' },
      // The consent version travels to the widget as the session gave it.
      consent: CONSENT,
    });
    // Where the widget sits: origin + path of the host page, never its query or fragment.
    expect((frame.received[0] as { page?: string }).page).toBe(location.origin + location.pathname);
    expect(fetch).toHaveBeenCalledTimes(1); // the mount's request, shared with the hello
    expect(seen.types()).toEqual([]); // svc-hello is internal
  });

  it('relays svc-ready and resizes only from the widget’s own frame on the embed origin', async () => {
    stubActivate(granted());
    const { element, iframe, frame } = mounted();
    const seen = record(element);
    frame.send('svc-ready', { calculator: 'rmd' }, 'https://evil.test');
    window.dispatchEvent(
      new MessageEvent('message', {
        data: {
          type: 'svc-ready',
          v: 1,
          widgetId: element.dataset.svcWidgetId,
          payload: { calculator: 'rmd' },
        },
        origin: EMBED,
        source: window,
      }),
    );
    expect(seen.types()).toEqual([]);
    frame.send('svc-ready', { calculator: 'rmd' });
    frame.send('svc-resize', { height: 742.4 });
    frame.send('svc-embed-resize', { height: 742.4 });
    expect(seen.types()).toEqual(['svc-ready', 'svc-resize', 'svc-embed-resize']);
    expect(seen.dom.map((e) => e.type)).toEqual(seen.types());
    expect(iframe.style.height).toBe('743px');
  });

  it('renews on the widget’s request and sends the new token over the same port', async () => {
    const fetch = stubActivate(granted());
    const { frame } = mounted();
    frame.hello();
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    const later = Date.now() + 20_000; // past the 10 s in which a token is shared as fresh
    vi.spyOn(Date, 'now').mockImplementation(() => later);
    frame.port()!.postMessage({ type: 'svc-token-request', v: 1 });
    await vi.waitFor(() => expect(frame.received).toHaveLength(2));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((frame.received[1] as { token: string }).token).not.toBe(
      (frame.received[0] as { token: string }).token,
    );
  });

  it('reports a page that never says hello', async () => {
    stubActivate(granted());
    vi.useFakeTimers();
    const { element, iframe } = mounted();
    const seen = record(element);
    iframe.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(READY_TIMEOUT_MS + 1);
    expect(seen.api).toEqual([
      { type: 'svc-error', payload: expect.objectContaining({ reason: 'network' }) },
    ]);
  });
});

describe('refusals', () => {
  it.each([
    [403, 'DOMAIN_NOT_ALLOWED', 'domain_not_allowed'],
    [401, 'INVALID_LICENSE', 'token_denied'],
    [400, 'WRONG_KEY_KIND', 'wrong_key_kind'],
  ])(
    'turns %d %s into svc-error %s with the API’s message, a fallback, and never svc-ready',
    async (status, code, reason) => {
      const fetch = stubActivate(refused(status, code));
      const reserved = document.createElement('div');
      reserved.style.minHeight = '841px';
      const one = mounted();
      const two = mounted('estate-tax', reserved);
      const seen = [record(one.element), record(two.element)];
      await vi.waitFor(() => expect(one.element.querySelector('[data-svc-fallback]')).toBeTruthy());
      one.frame.hello();
      await flush();
      for (const s of seen)
        expect(s.api).toEqual([{ type: 'svc-error', payload: { reason, message: 'no' } }]);
      expect(one.element.querySelector('iframe')).toBeNull();
      expect(two.element.querySelector('[data-svc-fallback]')?.textContent).toMatch(/isn’t available/);
      // The room the page reserved (the snippet's min-height) is given back: no hole.
      for (const w of [one, two]) expect(Number.parseFloat(w.element.style.minHeight)).toBe(0);
      expect(fetch).toHaveBeenCalledTimes(1);
    },
  );

  it('says the fallback in the widget’s language: data-svc-lang="es", or auto in a Spanish browser', async () => {
    stubActivate(refused(403, 'DOMAIN_NOT_ALLOWED'));
    const es = document.createElement('div');
    es.dataset.svcLang = 'es';
    const en = document.createElement('div');
    en.dataset.svcLang = 'en';
    const auto = document.createElement('div');
    auto.dataset.svcLang = 'auto';
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('es-MX');
    const widgets = [mounted('rmd', es), mounted('rmd', en), mounted('rmd', auto)];
    await vi.waitFor(() => expect(auto.querySelector('[data-svc-fallback]')).toBeTruthy());
    const notices = widgets.map((w) => w.element.querySelector<HTMLElement>('[data-svc-fallback]')!);
    expect(notices.map((p) => [p.lang, p.textContent])).toEqual([
      ['es', 'Esta calculadora no está disponible aquí por ahora.'],
      ['', 'This calculator isn’t available here right now.'],
      ['es', 'Esta calculadora no está disponible aquí por ahora.'],
    ]);
  });

  it('reports an unreachable API as network, and a later request from the widget tries again', async () => {
    stubActivate(offline, granted());
    const reserved = document.createElement('div');
    reserved.style.minHeight = '841px';
    const { element, frame } = mounted('rmd', reserved);
    const seen = record(element);
    frame.hello();
    await vi.waitFor(() => expect(seen.types()).toEqual(['svc-error']));
    expect(element.querySelector('iframe')).toBeTruthy(); // no fallback for a passing failure
    expect(element.style.minHeight).toBe('841px'); // and the room stays for when it comes back
    frame.port()!.postMessage({ type: 'svc-token-request', v: 1 });
    await vi.waitFor(() => expect(frame.received.at(-1)).toMatchObject({ type: 'svc-init' }));
  });
});

describe('mount, unmount and destroy', () => {
  it('unmount removes the iframe, closes the port and ignores the frame’s later messages', async () => {
    const fetch = stubActivate(granted());
    const { element, frame } = mounted();
    const seen = record(element);
    frame.hello();
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    const port = frame.port()!;
    svc.unmount(element);
    expect(element.querySelector('iframe')).toBeNull();
    expect(element.dataset.svcWidgetId).toBeUndefined();
    port.postMessage({ type: 'svc-token-request', v: 1 });
    frame.send('svc-ready', { calculator: 'rmd' });
    await flush();
    expect(seen.types()).toEqual([]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(frame.received).toHaveLength(1);
  });

  it('mounts placeholders added later and unmounts containers removed from the page', async () => {
    stubActivate(granted());
    svc.watch();
    const slot = document.createElement('div');
    slot.dataset.svcCalculator = 'rmd';
    document.body.appendChild(slot);
    await vi.waitFor(() => expect(slot.querySelector('iframe')).toBeTruthy());
    const id = slot.dataset.svcWidgetId;
    expect(id).toBeTruthy();
    slot.remove();
    await vi.waitFor(() => expect(slot.dataset.svcWidgetId).toBeUndefined());
    expect(slot.querySelector('iframe')).toBeNull();
  });

  it('destroy removes every widget and stops listening', async () => {
    stubActivate(granted());
    const { element, frame } = mounted();
    const listener = vi.fn();
    svc.on('svc-ready', listener);
    svc.destroy();
    expect(element.querySelector('iframe')).toBeNull();
    frame.send('svc-ready', { calculator: 'rmd' });
    expect(listener).not.toHaveBeenCalled();
  });
});

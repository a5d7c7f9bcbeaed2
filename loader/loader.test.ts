import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ErrorPayload, SvcMessage } from '../protocol/index.ts';
import { createLoader, READY_TIMEOUT_MS, type SvcApi } from './loader.ts';
import { RENEW_BEFORE_MS } from './session.ts';
import { API, EMBED, fakeFrame, granted, offline, refused, stubActivate } from './testing.ts';

const config = { licenseKey: 'SVC-KEY', apiUrl: API, embedOrigin: EMBED, defaultCalculator: 'estate-tax' };
const RESULT = {
  resultId: 'res_1',
  calculator: 'rmd',
  state: null,
  inputs: {},
  outputs: { rmd: 1 },
  ruleSet: { id: 'x', taxYear: 2026, effectiveDate: '2026-01-01' },
};

let svc: SvcApi;

function mounted(calculator = 'rmd') {
  const element = document.createElement('div');
  document.body.appendChild(element);
  const id = svc.mount(element, calculator)!;
  const iframe = element.querySelector('iframe')!;
  return { id, element, iframe, frame: fakeFrame(iframe, id) };
}

/** Every event the host page sees, through both channels. */
function record(element: HTMLElement) {
  const dom: { type: string; detail: unknown }[] = [];
  const api: { type: string; payload: unknown }[] = [];
  for (const type of ['svc-ready', 'svc-resize', 'svc-result', 'svc-lead', 'svc-error'] as const) {
    element.addEventListener(type, (e) => dom.push({ type, detail: (e as CustomEvent).detail }));
    svc.on(type, (payload, meta) => {
      if (meta.element === element) api.push({ type, payload });
    });
  }
  return { dom, api };
}

beforeEach(() => {
  document.body.innerHTML = '';
  vi.spyOn(console, 'error').mockImplementation(() => {});
  svc = createLoader(config);
});
afterEach(() => {
  // Unmount everything so no renewal timer outlives its test.
  for (const el of document.querySelectorAll<HTMLElement>('[data-svc-widget-id]')) svc.unmount(el);
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('mounting', () => {
  it('puts an iframe of the embed origin in the container, with no token or key in its URL', () => {
    stubActivate(granted());
    const { id, element, iframe } = mounted('rmd');
    const url = new URL(iframe.src);
    expect(url.origin + url.pathname).toBe(`${EMBED}/w/rmd.html`);
    const hash = new URLSearchParams(url.hash.slice(1));
    expect(hash.get('widgetId')).toBe(id);
    expect(hash.get('host')).toBe(window.location.origin);
    expect([...hash.keys()].sort()).toEqual(['host', 'widgetId']);
    expect(iframe.src).not.toContain('SVC-KEY');
    expect(iframe.getAttribute('style')).not.toBeNull(); // set through properties, which CSP allows
    expect(svc.mount(element)).toBe(id);
    expect(element.querySelectorAll('iframe')).toHaveLength(1);
  });

  it.each([
    ['a path', '../admin', 'invalid_input'],
    ['upper case', 'Estate-Tax', 'invalid_input'],
  ])('refuses %s as a calculator name with an svc-error', (_name, slug, reason) => {
    stubActivate(granted());
    const element = document.createElement('div');
    const seen = record(element);
    expect(svc.mount(element, slug)).toBeUndefined();
    expect(element.querySelector('iframe')).toBeNull();
    expect(seen.dom).toEqual([{ type: 'svc-error', detail: expect.objectContaining({ reason }) }]);
  });

  it('removes a widget whose calculator the license does not offer, and says which exist', async () => {
    stubActivate(granted(600_000, ['rmd']));
    const element = document.createElement('div');
    const seen = record(element);
    svc.mount(element, 'estate-tax');
    await vi.waitFor(() => expect(seen.api).toHaveLength(1));
    expect(seen.api[0]).toEqual({
      type: 'svc-error',
      payload: expect.objectContaining({ reason: 'invalid_input', message: expect.stringContaining('rmd') }),
    });
    expect(element.querySelector('iframe')).toBeNull();
  });

  it('does not throw when the host page passes no element', () => {
    expect(svc.mount(null as never)).toBeUndefined();
    expect(() => svc.unmount(null as never)).not.toThrow();
  });
});

describe('messages from the iframe', () => {
  it('relays a result to Svc.on listeners and as a bubbling DOM event on the container', () => {
    stubActivate(granted());
    const { element, frame } = mounted();
    const seen = record(element);
    const bubbled: unknown[] = [];
    document.body.addEventListener('svc-result', (e) => bubbled.push((e as CustomEvent).detail));
    frame.send('svc-result', RESULT);
    expect(seen.api).toEqual([{ type: 'svc-result', payload: RESULT }]);
    expect(seen.dom).toEqual([{ type: 'svc-result', detail: RESULT }]);
    expect(bubbled).toEqual([RESULT]);
  });

  it.each([
    ['another origin', { origin: 'https://evil.test' }],
    ['the host page itself', { source: 'host' }],
    ['another widget’s frame', { source: 'other' }],
    ['a malformed payload', { payload: { resultId: 5 } }],
    ['an unknown widget id', { id: 'svc-999' }],
  ])(
    'ignores a message from %s',
    (_name, forged: { origin?: string; source?: string; payload?: object; id?: string }) => {
      stubActivate(granted());
      const a = mounted();
      const b = mounted('estate-tax');
      const seen = record(a.element);
      const source =
        forged.source === 'host' ? window : forged.source === 'other' ? b.frame.win : a.frame.win;
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'svc-result', v: 1, widgetId: forged.id ?? a.id, payload: forged.payload ?? RESULT },
          origin: forged.origin ?? EMBED,
          source: source as never,
        }),
      );
      expect(seen.api).toEqual([]);
      expect(seen.dom).toEqual([]);
    },
  );

  it('ignores every message while the iframe has no window (not attached yet)', () => {
    stubActivate(granted());
    const element = document.createElement('div');
    const id = svc.mount(element)!;
    const seen = record(element);
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'svc-ready', v: 1, widgetId: id, payload: { calculator: 'estate-tax' } },
        origin: EMBED,
        source: null,
      }),
    );
    expect(seen.api).toEqual([]);
  });

  it.each([
    ['svc-resize', 300, '300px'],
    ['svc-embed-resize', 400.2, '401px'],
    ['alt-embed-resize', 500, '500px'],
    ['svc-resize', 10, '120px'],
  ] as const)('resizes the iframe on %s (%d)', (type, height, css) => {
    stubActivate(granted());
    const { iframe, frame } = mounted();
    frame.send(type, { height });
    expect(iframe.style.height).toBe(css);
  });

  it('keeps calling the other listeners when one throws, and honours off and unsubscribe', () => {
    stubActivate(granted());
    const { frame } = mounted();
    const calls: string[] = [];
    const second = () => calls.push('second');
    svc.on('svc-lead', () => {
      throw new Error('host bug');
    });
    svc.on('svc-lead', second);
    const stop = svc.on('svc-lead', () => calls.push('third'));
    frame.send('svc-lead', { leadId: 'lead_1', calculator: 'rmd' });
    svc.off('svc-lead', second);
    stop();
    frame.send('svc-lead', { leadId: 'lead_2', calculator: 'rmd' });
    expect(calls).toEqual(['second', 'third']);
  });
});

describe('session handshake', () => {
  it('answers svc-ready with a port on the embed origin, then the token over that port', async () => {
    const fetch = stubActivate(granted());
    const { frame } = mounted();
    mounted('estate-tax');
    frame.send('svc-ready', { calculator: 'rmd' });
    expect(frame.posted).toEqual([
      { data: expect.objectContaining({ type: 'svc-connect' }), targetOrigin: EMBED },
    ]);
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    const init = frame.received[0] as { token: string };
    expect(init).toMatchObject({
      type: 'svc-init',
      v: 1,
      apiUrl: API,
      token: expect.stringMatching(/^token-/),
    });
    expect(JSON.stringify(frame.posted)).not.toContain(init.token);
    // One activation for the whole page, however many widgets.
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe(`${API}/v1/api/license/activate`);
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({ licenseKey: 'SVC-KEY' });
  });

  it.each([
    [401, 'INVALID_LICENSE', 'token_denied'],
    [403, 'DOMAIN_NOT_ALLOWED', 'domain_not_allowed'],
  ])('turns a %d %s into one svc-error per widget and asks the API once', async (status, code, reason) => {
    const fetch = stubActivate(refused(status, code));
    const widgets = [mounted(), mounted('estate-tax'), mounted('probate-fees')];
    const seen = widgets.map((w) => record(w.element));
    // The refusal arrives before the frames are ready: they must not ask again.
    for (const s of seen) await vi.waitFor(() => expect(s.api).toHaveLength(1));
    for (const w of widgets) w.frame.send('svc-ready', { calculator: 'rmd' });
    for (const w of widgets) await vi.waitFor(() => expect(w.frame.received).toHaveLength(1));
    for (const w of widgets) expect(w.frame.received[0]).toMatchObject({ type: 'svc-session-error', reason });
    const errors = seen.map((s) => s.api.filter((e) => e.type === 'svc-error'));
    expect(seen.map((s) => s.api.length)).toEqual([2, 2, 2]); // svc-ready, svc-error
    expect(errors.map((e) => e.length)).toEqual([1, 1, 1]);
    expect((errors[0]![0]!.payload as ErrorPayload).reason).toBe(reason);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('reports an unreachable API as network, then retries and initialises the waiting widget', async () => {
    vi.useFakeTimers();
    const fetch = stubActivate(offline, granted());
    const { element, frame } = mounted();
    const seen = record(element);
    frame.send('svc-ready', { calculator: 'rmd' });
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    expect(frame.received[0]).toMatchObject({ type: 'svc-session-error', reason: 'network' });
    expect(seen.api.filter((e) => e.type === 'svc-error')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(frame.received).toHaveLength(2));
    expect(frame.received[1]).toMatchObject({ type: 'svc-init', token: expect.any(String), apiUrl: API });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('renews the token before it expires and hands the new one over the same port', async () => {
    vi.useFakeTimers();
    const fetch = stubActivate(granted(600_000));
    const { frame } = mounted();
    frame.send('svc-ready', { calculator: 'rmd' });
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(600_000 - RENEW_BEFORE_MS - 1_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(frame.received).toHaveLength(2));
    const [init, renewed] = frame.received as { type: string; token: string }[];
    expect(renewed).toMatchObject({ type: 'svc-token', v: 1 });
    expect(renewed!.token).not.toBe(init!.token);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('tells every widget when renewal is refused for good', async () => {
    vi.useFakeTimers();
    stubActivate(granted(600_000), refused(401, 'INVALID_LICENSE'));
    const { element, frame } = mounted();
    const seen = record(element);
    frame.send('svc-ready', { calculator: 'rmd' });
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(600_000 - RENEW_BEFORE_MS);
    await vi.waitFor(() => expect(frame.received).toHaveLength(2));
    expect(frame.received[1]).toMatchObject({ type: 'svc-session-error', reason: 'token_denied' });
    expect(seen.api.at(-1)).toEqual({
      type: 'svc-error',
      payload: expect.objectContaining({ reason: 'token_denied' }),
    });
  });

  it('renews on the widget’s request, but only re-sends a token that is still fresh', async () => {
    vi.useFakeTimers();
    const fetch = stubActivate(granted());
    const { frame } = mounted();
    frame.send('svc-ready', { calculator: 'rmd' });
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    frame.port()!.postMessage({ type: 'svc-token-request', v: 1 });
    await vi.waitFor(() => expect(frame.received).toHaveLength(2));
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000);
    frame.port()!.postMessage({ type: 'svc-token-request', v: 1 });
    await vi.waitFor(() => expect(frame.received).toHaveLength(3));
    expect(fetch).toHaveBeenCalledTimes(2);
    const tokens = (frame.received as { token: string }[]).map((m) => m.token);
    expect(tokens[1]).toBe(tokens[0]);
    expect(tokens[2]).not.toBe(tokens[0]);
  });

  it('reports a page that loads but never says svc-ready', async () => {
    vi.useFakeTimers();
    stubActivate(granted());
    const { element, iframe } = mounted();
    const seen = record(element);
    iframe.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(READY_TIMEOUT_MS);
    expect(seen.api).toEqual([
      {
        type: 'svc-error',
        payload: expect.objectContaining({ reason: 'network', message: expect.stringContaining(EMBED) }),
      },
    ]);
  });

  it('stays quiet about load when svc-ready came first', async () => {
    vi.useFakeTimers();
    stubActivate(granted());
    const { element, iframe, frame } = mounted();
    frame.send('svc-ready', { calculator: 'rmd' });
    const seen = record(element);
    iframe.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(READY_TIMEOUT_MS * 2);
    expect(seen.api.filter((e) => e.type === 'svc-error')).toEqual([]);
  });
});

describe('unmount', () => {
  it('removes the iframe, ignores its later messages and stops renewing once no widget is left', async () => {
    vi.useFakeTimers();
    const fetch = stubActivate(granted());
    const { element, iframe, frame } = mounted();
    frame.send('svc-ready', { calculator: 'rmd' });
    await vi.waitFor(() => expect(frame.received).toHaveLength(1));
    const seen: SvcMessage['type'][] = [];
    svc.on('svc-result', () => seen.push('svc-result'));
    svc.unmount(element);
    expect(iframe.isConnected).toBe(false);
    expect(element.dataset.svcWidgetId).toBeUndefined();
    frame.send('svc-result', RESULT);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(seen).toEqual([]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

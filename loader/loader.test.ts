import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEvent } from '../protocol/index.ts';
import { configFromScript, createLoader, reasonFor } from './loader.ts';

const EMBED = 'https://embed.svc.test';
const config = {
  licenseKey: 'SVC-KEY',
  apiUrl: 'https://api.svc.test',
  embedOrigin: EMBED,
  defaultCalculator: 'estate-tax',
};

describe('loader', () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="a" data-svc-calculator="rmd"></div>';
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ token: 't', expiresAt: new Date(Date.now() + 600_000).toISOString() }),
            { status: 200 },
          ),
      ),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('mounts an iframe on the embed origin with no token in its URL', () => {
    const svc = createLoader(config);
    const element = document.getElementById('a')!;
    const id = svc.mount(element);
    const iframe = element.querySelector('iframe')!;
    expect(iframe.src.startsWith(`${EMBED}/w/rmd.html#`)).toBe(true);
    expect(iframe.src).toContain(`widgetId=${id}`);
    expect(new URLSearchParams(iframe.src.split('#')[1]).has('token')).toBe(false);
    expect(iframe.src).not.toContain('SVC-KEY');
    expect(svc.mount(element)).toBe(id);
    expect(element.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('relays only messages from its own iframe on the embed origin', () => {
    const svc = createLoader(config);
    const element = document.getElementById('a')!;
    const id = svc.mount(element)!;
    const iframe = element.querySelector('iframe')!;
    const seen: unknown[] = [];
    svc.on('svc-result', (payload) => seen.push(payload));
    const result = createEvent('svc-result', id, {
      resultId: 'res_1',
      calculator: 'rmd',
      state: null,
      inputs: {},
      outputs: { rmd: 1 },
      ruleSet: { id: 'x', taxYear: 2026, effectiveDate: '2026-01-01' },
    });
    window.dispatchEvent(
      new MessageEvent('message', {
        data: result,
        origin: 'https://evil.test',
        source: iframe.contentWindow,
      }),
    );
    window.dispatchEvent(new MessageEvent('message', { data: result, origin: EMBED, source: window }));
    expect(seen).toHaveLength(0);
    window.dispatchEvent(
      new MessageEvent('message', { data: result, origin: EMBED, source: iframe.contentWindow }),
    );
    expect(seen).toHaveLength(1);
  });

  it('resizes on svc-resize and on the legacy names', () => {
    const svc = createLoader(config);
    const element = document.getElementById('a')!;
    const id = svc.mount(element)!;
    const iframe = element.querySelector('iframe')!;
    for (const [type, height] of [
      ['svc-resize', 300],
      ['svc-embed-resize', 400],
      ['alt-embed-resize', 500],
    ] as const) {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: createEvent(type, id, { height }),
          origin: EMBED,
          source: iframe.contentWindow,
        }),
      );
      expect(iframe.style.height).toBe(`${height}px`);
    }
  });

  it('maps API refusals to reasons a developer can act on', () => {
    expect(reasonFor(401).reason).toBe('token_denied');
    expect(reasonFor(403, 'DOMAIN_NOT_ALLOWED').reason).toBe('domain_not_allowed');
    expect(reasonFor(429).reason).toBe('rate_limited');
    expect(reasonFor(500).reason).toBe('unknown');
  });

  it('needs data-key to start', () => {
    const script = document.createElement('script');
    script.src = `${EMBED}/loader.js`;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(configFromScript(script, '__SVC_API_URL__')).toBeUndefined();
    script.dataset.key = 'SVC-KEY';
    script.dataset.api = 'https://api.svc.test/';
    expect(configFromScript(script, '__SVC_API_URL__')).toMatchObject({
      embedOrigin: EMBED,
      apiUrl: 'https://api.svc.test',
    });
    error.mockRestore();
  });
});

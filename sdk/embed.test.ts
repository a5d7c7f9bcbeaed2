import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * embed.mjs loads loader.js once and shares that load between calls. A load that failed (a network
 * error, a blocked script) must not be shared: the host page's next `mount` tries again.
 * The test plays the browser's part: it takes each `<script>` embed.mjs appends and answers it with
 * an `error` or a `load` event, so no network is involved and nothing races.
 */
/** The global loader.js sets; a test stands in for it with a partial fake. */
const global = window as unknown as { Svc?: unknown };

let scripts: HTMLScriptElement[];

beforeEach(() => {
  vi.resetModules();
  scripts = [];
  delete global.Svc;
  vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
    scripts.push(node as unknown as HTMLScriptElement);
    return node;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  delete global.Svc;
});

function fakeSvc() {
  return {
    on: vi.fn(() => () => {}),
    mount: vi.fn(() => 'w1'),
    unmount: vi.fn(),
    destroy: vi.fn(),
  };
}

describe('embed.mjs mount', () => {
  it('tries loader.js again after a failed load, and then mounts', async () => {
    const { mount, on } = await import('./embed.ts');
    const element = document.createElement('div');
    const listener = vi.fn();
    on('svc-result', listener);

    const first = mount(element, { key: 'svc_pk_test', calculator: 'estate-tax' });
    expect(scripts).toHaveLength(1);
    scripts[0]!.onerror?.(new Event('error'));
    await expect(first).rejects.toThrow(/could not load .*loader\.js/);

    const svc = fakeSvc();
    const second = mount(element, { key: 'svc_pk_test', calculator: 'estate-tax' });
    expect(scripts).toHaveLength(2);
    global.Svc = svc;
    scripts[1]!.onload?.(new Event('load'));
    await expect(second).resolves.toBe('w1');
    expect(svc.mount).toHaveBeenCalledWith(element, 'estate-tax');
    // A listener added before the failed load is attached once the load succeeds.
    expect(svc.on).toHaveBeenCalledWith('svc-result', listener);
  });

  it('gives each mount its own language, as a container attribute the loader reads', async () => {
    const { mount } = await import('./embed.ts');
    const english = document.createElement('div');
    const spanish = document.createElement('div');
    const svc = fakeSvc();
    const first = mount(english, { key: 'svc_pk_test', calculator: 'rmd' });
    global.Svc = svc;
    scripts[0]!.onload?.(new Event('load'));
    await first;
    await mount(spanish, { key: 'svc_pk_test', calculator: 'rmd', lang: 'es' });
    expect(english.dataset.svcLang).toBeUndefined();
    expect(spanish.dataset.svcLang).toBe('es');
    expect(svc.mount).toHaveBeenLastCalledWith(spanish, 'rmd');
  });

  it('retries after loader.js loaded but did not start', async () => {
    const { mount } = await import('./embed.ts');
    const element = document.createElement('div');
    const first = mount(element, { key: 'svc_pk_test' });
    scripts[0]!.onload?.(new Event('load'));
    await expect(first).rejects.toThrow(/did not start/);

    const second = mount(element, { key: 'svc_pk_test' });
    expect(scripts).toHaveLength(2);
    global.Svc = fakeSvc();
    scripts[1]!.onload?.(new Event('load'));
    await expect(second).resolves.toBe('w1');
  });

  it('shares one load between calls while it is in flight, and after it succeeded', async () => {
    const { mount } = await import('./embed.ts');
    const a = mount(document.createElement('div'), { key: 'svc_pk_test' });
    const b = mount(document.createElement('div'), { key: 'svc_pk_test' });
    expect(scripts).toHaveLength(1);
    global.Svc = fakeSvc();
    scripts[0]!.onload?.(new Event('load'));
    await expect(Promise.all([a, b])).resolves.toEqual(['w1', 'w1']);
    await mount(document.createElement('div'), { key: 'svc_pk_test' });
    expect(scripts).toHaveLength(1);
  });
});

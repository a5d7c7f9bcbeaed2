import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMBED, granted, stubActivate } from './testing.ts';

/** Runs loader.js's entry as a page would: a fresh module each time. */
async function runLoader(): Promise<void> {
  vi.resetModules();
  await import('./main.ts');
}

function addScript(attrs: Record<string, string>): HTMLScriptElement {
  const script = document.createElement('script');
  script.setAttribute('src', `${EMBED}/loader.js`);
  for (const [k, v] of Object.entries(attrs)) script.setAttribute(k, v);
  document.body.appendChild(script);
  return script;
}

beforeEach(() => {
  document.body.innerHTML = '';
  delete window.Svc;
  stubActivate(granted());
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  window.Svc?.destroy();
  delete window.Svc;
  for (const link of document.head.querySelectorAll('link')) link.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('loader.js entry', () => {
  it('mounts every [data-svc-calculator] container and exposes window.Svc', async () => {
    document.body.innerHTML =
      '<div data-svc-calculator="rmd"></div><div data-svc-calculator="estate-tax"></div>';
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test' });
    await runLoader();
    const frames = [...document.querySelectorAll('iframe')].map((f) => new URL(f.src).pathname);
    expect(frames).toEqual(['/w/rmd.html', '/w/estate-tax.html']);
    expect(window.Svc).toMatchObject({ version: expect.any(String) });
    expect(window.Svc).toMatchObject({
      mount: expect.any(Function),
      unmount: expect.any(Function),
      on: expect.any(Function),
      off: expect.any(Function),
      destroy: expect.any(Function),
    });
  });

  it('is not switched off by page content such as <a id="Svc"> (named access on window)', async () => {
    document.body.innerHTML = '<a id="Svc" href="#">comment</a><div data-svc-calculator="rmd"></div>';
    // What a browser's named access does (happy-dom has none): window.Svc is the element.
    Object.defineProperty(window, 'Svc', {
      value: document.getElementById('Svc'),
      configurable: true,
      writable: true,
    });
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test' });
    await runLoader();
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    expect(typeof window.Svc?.mount).toBe('function');
  });

  it('Svc.destroy() removes every widget and lets the loader start again', async () => {
    document.body.innerHTML = '<div data-svc-calculator="rmd"></div>';
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test' });
    await runLoader();
    window.Svc!.destroy();
    expect(document.querySelector('iframe')).toBeNull();
    expect(window.Svc).toBeUndefined();
  });

  it('preconnects to the API', async () => {
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test', 'data-mount': 'manual' });
    await runLoader();
    expect(document.head.querySelector('link[rel="preconnect"]')?.getAttribute('href')).toBe(
      'https://api.svc.test',
    );
  });

  it('runs once when the page includes it twice', async () => {
    document.body.innerHTML = '<div data-svc-calculator="rmd"></div>';
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test' });
    await runLoader();
    const first = window.Svc;
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test' });
    await runLoader();
    expect(window.Svc).toBe(first);
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('puts the widget right after its script when the page has no container', async () => {
    const script = addScript({
      'data-key': 'SVC-KEY',
      'data-api': 'https://api.svc.test',
      'data-calculator': 'rmd',
    });
    await runLoader();
    const next = script.nextElementSibling;
    expect(next?.querySelector('iframe')?.src).toContain('/w/rmd.html');
  });

  it('mounts into what data-target selects', async () => {
    document.body.innerHTML = '<section class="calc"></section><section class="calc"></section>';
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test', 'data-target': '.calc' });
    await runLoader();
    expect(document.querySelectorAll('section.calc > iframe')).toHaveLength(2);
  });

  it('mounts nothing on load with data-mount="manual", and Svc.mount still works', async () => {
    document.body.innerHTML = '<div id="slot"></div>';
    addScript({ 'data-key': 'SVC-KEY', 'data-api': 'https://api.svc.test', 'data-mount': 'manual' });
    await runLoader();
    expect(document.querySelector('iframe')).toBeNull();
    window.Svc!.mount(document.getElementById('slot')!, 'rmd');
    expect(document.querySelectorAll('#slot > iframe')).toHaveLength(1);
  });

  it('does nothing but explain itself without data-key', async () => {
    addScript({ 'data-api': 'https://api.svc.test' });
    await expect(runLoader()).resolves.toBeUndefined();
    expect(window.Svc).toBeUndefined();
    expect(document.querySelector('iframe')).toBeNull();
    expect(console.error).toHaveBeenCalled();
  });
});

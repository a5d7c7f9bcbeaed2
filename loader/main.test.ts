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
  for (const el of document.querySelectorAll<HTMLElement>('[data-svc-widget-id]')) window.Svc?.unmount(el);
  delete window.Svc;
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
    expect(Object.keys(window.Svc!).sort()).toEqual(['mount', 'off', 'on', 'unmount', 'version']);
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

import { afterEach, expect, it, vi } from 'vitest';
import { watchHeight } from './resize.ts';

afterEach(() => vi.unstubAllGlobals());

it('reports the body’s height from the observer’s first call, and again only when it changes', () => {
  let onResize: () => void = () => {};
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        onResize = callback;
      }
      observe() {}
      disconnect() {}
    },
  );
  const body = document.createElement('div');
  let height = 300.2;
  body.getBoundingClientRect = () => ({ height }) as DOMRect;
  const reports: number[] = [];
  watchHeight(body, (h) => reports.push(h));
  expect(reports).toEqual([]); // no layout forced at start
  onResize();
  height = 420;
  onResize();
  height = 180;
  onResize();
  expect(reports).toEqual([301, 420, 180]);
});

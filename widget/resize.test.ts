import { afterEach, expect, it, vi } from 'vitest';
import { MAX_HEIGHT, RESIZE_BURST, RESIZE_WINDOW_MS, watchHeight } from './resize.ts';

afterEach(() => vi.unstubAllGlobals());

/** watchHeight over a stub ResizeObserver: `resize(h)` is one observer notification at height h. */
function watched() {
  let notify: () => void = () => {};
  let disconnected = false;
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        notify = callback;
      }
      observe() {}
      disconnect() {
        disconnected = true;
      }
    },
  );
  const body = document.createElement('div');
  let height = 0;
  body.getBoundingClientRect = () => ({ height }) as DOMRect;
  const reports: number[] = [];
  let loops = 0;
  watchHeight(
    body,
    (h) => reports.push(h),
    () => loops++,
  );
  const resize = (...heights: number[]) => {
    for (const h of heights) {
      height = h;
      notify();
    }
  };
  return { resize, reports, loops: () => loops, disconnected: () => disconnected };
}

it('reports the body’s height from the observer’s first call, and again only when it changes', () => {
  const w = watched();
  expect(w.reports).toEqual([]); // no layout forced at start
  w.resize(300.2, 300.2, 420, 180);
  expect(w.reports).toEqual([301, 420, 180]);
});

it('stops an oscillation (host CSS flipping the height): one loop report, no more resizes', () => {
  const w = watched();
  w.resize(...Array.from({ length: RESIZE_BURST + 10 }, (_, i) => (i % 2 ? 400 : 420)));
  expect(w.reports).toHaveLength(RESIZE_BURST);
  expect(w.loops()).toBe(1);
  expect(w.disconnected()).toBe(true);
});

it('stops runaway growth past MAX_HEIGHT without reporting the runaway height', () => {
  const w = watched();
  w.resize(600, 5_000, MAX_HEIGHT + 1, MAX_HEIGHT + 500);
  expect(w.reports).toEqual([600, 5_000]);
  expect(w.loops()).toBe(1);
});

it('lets a form that grows and shrinks now and then resize freely', () => {
  vi.useFakeTimers();
  try {
    const w = watched();
    for (let i = 0; i < 3; i++) {
      w.resize(...Array.from({ length: RESIZE_BURST }, (_, j) => 400 + 100 * i + j));
      vi.advanceTimersByTime(RESIZE_WINDOW_MS + 1);
    }
    expect(w.reports).toHaveLength(3 * RESIZE_BURST);
    expect(w.loops()).toBe(0);
  } finally {
    vi.useRealTimers();
  }
});

import { afterEach, expect, it, vi } from 'vitest';
import { MAX_HEIGHT, RESIZE_BURST, RESIZE_WINDOW_MS, watchHeight } from './resize.ts';

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

function observed(heights: number[]) {
  let onResize: () => void = () => {};
  let disconnected = false;
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        onResize = callback;
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
  for (const h of heights) {
    height = h;
    onResize();
  }
  return { reports, loops: () => loops, disconnected: () => disconnected };
}

it('stops an oscillation (host CSS flipping the height): one loop report, no more resizes', () => {
  const flips = Array.from({ length: RESIZE_BURST + 10 }, (_, i) => (i % 2 ? 400 : 420));
  const { reports, loops, disconnected } = observed(flips);
  expect(reports).toHaveLength(RESIZE_BURST);
  expect(loops()).toBe(1);
  expect(disconnected()).toBe(true);
});

it('stops runaway growth past MAX_HEIGHT without reporting the runaway height', () => {
  const { reports, loops } = observed([600, 5_000, MAX_HEIGHT + 1, MAX_HEIGHT + 500]);
  expect(reports).toEqual([600, 5_000]);
  expect(loops()).toBe(1);
});

it('lets a form that grows and shrinks now and then resize freely', () => {
  vi.useFakeTimers();
  try {
    const reports: number[] = [];
    for (let i = 0; i < 3; i++) {
      reports.push(...observed(Array.from({ length: RESIZE_BURST }, (_, j) => 400 + j)).reports);
      vi.advanceTimersByTime(RESIZE_WINDOW_MS + 1);
    }
    expect(reports).toHaveLength(3 * RESIZE_BURST);
  } finally {
    vi.useRealTimers();
  }
});

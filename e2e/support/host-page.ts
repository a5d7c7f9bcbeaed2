import type { Browser, FrameLocator, Request } from 'playwright-core';

export interface HostEvent {
  type: string;
  detail: Record<string, unknown>;
  /** The widget id on the container the event was dispatched on. */
  widgetId: string;
}

interface Recorder {
  events: HostEvent[];
  violations: { directive: string; blocked: string }[];
}

declare global {
  interface Window {
    __svcRecorder?: Recorder;
  }
}

const TYPES = ['svc-ready', 'svc-resize', 'svc-result', 'svc-lead', 'svc-error'];

/**
 * Runs in every frame before the page's own scripts: records the widget events that reach the
 * host page (DOM events dispatched by the loader on each container, so the page needs no code
 * of its own) and every CSP violation.
 */
function installRecorder(types: string[]): void {
  const recorder: Recorder = { events: [], violations: [] };
  window.__svcRecorder = recorder;
  for (const type of types) {
    document.addEventListener(
      type,
      (event) => {
        const target = event.target as HTMLElement;
        const detail = (event as CustomEvent).detail as Record<string, unknown>;
        recorder.events.push({ type, detail, widgetId: target.dataset?.svcWidgetId ?? '' });
      },
      true,
    );
  }
  document.addEventListener('securitypolicyviolation', (event) => {
    recorder.violations.push({ directive: event.violatedDirective, blocked: event.blockedURI });
  });
}

/** A host page opened in its own browser context, with what it saw recorded. */
export async function openHostPage(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(installRecorder, TYPES);
  const pageErrors: Error[] = [];
  const requests: Request[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  page.on('request', (request) => requests.push(request));
  await page.goto(url);

  const events = async (type?: string): Promise<HostEvent[]> => {
    const all = await page.evaluate(() => window.__svcRecorder?.events ?? []);
    return type ? all.filter((e) => e.type === type) : all;
  };
  return {
    page,
    pageErrors,
    /** Requests of the page and its frames to a path ending with `suffix`. */
    requestsTo: (suffix: string) => requests.filter((r) => new URL(r.url()).pathname.endsWith(suffix)),
    events,
    count: async (type: string) => (await events(type)).length,
    /** CSP violations in the host page and in every widget frame. */
    async violations() {
      const all = await Promise.all(
        page.frames().map((f) => f.evaluate(() => window.__svcRecorder?.violations ?? []).catch(() => [])),
      );
      return all.flat();
    },
    widget: (n = 0): FrameLocator => page.locator('iframe').nth(n).contentFrame(),
    close: () => context.close(),
  };
}

export type HostPage = Awaited<ReturnType<typeof openHostPage>>;

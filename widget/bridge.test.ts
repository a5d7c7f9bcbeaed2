import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBridge, TOKEN_REQUEST_TIMEOUT_MS } from './bridge.ts';

const HOST = 'https://firm.test';
/** An embed token's shape: the widget reads only the `org` claim (the API verifies the rest). */
const jwt = (org: string, n = 1) =>
  [
    'e30',
    btoa(JSON.stringify({ org, n })).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
    'sig',
  ].join('.');
const INIT = {
  type: 'svc-init',
  v: 1,
  token: jwt(HOST),
  expiresAt: '2099-01-01T00:00:00Z',
  apiUrl: 'https://api.test',
};

/** A stand-in for the iframe's window: its hash, its parent, and messages delivered to it. */
function frameWindow(hash = `#widgetId=w1&host=${encodeURIComponent(HOST)}`) {
  const target = new EventTarget();
  const parent = { postMessage: vi.fn() };
  const win = Object.assign(target, { location: { hash }, parent }) as unknown as Window;
  const deliver = (data: unknown, init: { origin?: string; source?: unknown; port?: MessagePort } = {}) =>
    target.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: init.origin ?? HOST,
        source: (init.source ?? parent) as never,
        ports: init.port ? [init.port] : [],
      }),
    );
  return { win, parent, deliver };
}

/** Hands the bridge a channel as the loader would; returns the loader's end. */
function connect(
  frame: ReturnType<typeof frameWindow>,
  init: { origin?: string; source?: unknown; id?: string } = {},
) {
  const channel = new MessageChannel();
  frame.deliver({ type: 'svc-connect', v: 1, widgetId: init.id ?? 'w1' }, { ...init, port: channel.port2 });
  return channel.port1;
}

/** Resolves after a message posted now on a fresh channel has been delivered: earlier ones were too. */
async function roundTrip(): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const c = new MessageChannel();
    await new Promise((resolve) => {
      c.port2.onmessage = resolve;
      c.port1.postMessage(0);
    });
    c.port2.close();
  }
}

afterEach(() => vi.useRealTimers());

describe('createBridge', () => {
  it.each([
    ['no hash', ''],
    ['no host', '#widgetId=w1'],
    ['a host that is not http(s)', '#widgetId=w1&host=javascript%3Aalert(1)'],
    ['no widget id', `#host=${encodeURIComponent(HOST)}`],
  ])('stays off with %s', (_name, hash) => {
    expect(createBridge(frameWindow(hash).win)).toBeUndefined();
  });

  it('stays off when the page is not framed', () => {
    const frame = frameWindow();
    Object.assign(frame.win, { parent: frame.win });
    expect(createBridge(frame.win)).toBeUndefined();
  });

  it('posts events to the parent with the host origin as target, never "*"', () => {
    const frame = frameWindow(`#widgetId=w1&host=${encodeURIComponent(`${HOST}/some/page?x=1`)}`);
    const bridge = createBridge(frame.win)!;
    bridge.emit('svc-ready', { calculator: 'rmd' });
    expect(frame.parent.postMessage).toHaveBeenCalledWith(
      { type: 'svc-ready', v: 1, widgetId: 'w1', payload: { calculator: 'rmd' } },
      HOST,
    );
  });

  it('takes the session from the port the parent handed over', async () => {
    const frame = frameWindow();
    const bridge = createBridge(frame.win)!;
    const got: unknown[] = [];
    bridge.onSession((m) => got.push(m));
    const loader = connect(frame);
    loader.postMessage(INIT);
    loader.postMessage({ type: 'svc-init', v: 1, token: 5 }); // malformed: dropped
    loader.postMessage({ type: 'svc-token', v: 1, token: jwt(HOST, 2), expiresAt: '2099-01-01T00:00:00Z' });
    await vi.waitFor(() => expect(got).toHaveLength(2));
    expect(got[0]).toEqual(INIT);
    expect(got[1]).toMatchObject({ type: 'svc-token', token: jwt(HOST, 2) });
  });

  it.each([
    ['names another origin than its parent', jwt('https://evil.test')],
    ['names no origin', 'not-a-jwt'],
  ])('refuses the session when the token %s, and closes the channel', async (_name, token) => {
    const frame = frameWindow();
    const bridge = createBridge(frame.win)!;
    const got: unknown[] = [];
    bridge.onSession((m) => got.push(m));
    const loader = connect(frame);
    loader.postMessage({ ...INIT, token });
    await roundTrip();
    loader.postMessage(INIT); // the port is closed: not even a valid token gets through now
    await roundTrip();
    expect(got).toEqual([]);
    expect(await bridge.requestToken()).toBe(false);
  });

  it('says hello to the parent, on the host origin only', () => {
    const frame = frameWindow();
    createBridge(frame.win)!.hello();
    expect(frame.parent.postMessage).toHaveBeenCalledWith(
      { type: 'svc-hello', v: 1, widgetId: 'w1', title: expect.any(String) },
      HOST,
    );
  });

  it.each([
    ['another origin', { origin: 'https://evil.test' }],
    ['a window that is not the parent', { source: {} }],
    ['another widget id', { id: 'w2' }],
  ])('refuses a channel offered by %s', async (_name, init) => {
    const frame = frameWindow();
    const bridge = createBridge(frame.win)!;
    const got: unknown[] = [];
    bridge.onSession((m) => got.push(m));
    connect(frame, init).postMessage(INIT);
    await roundTrip();
    expect(got).toEqual([]);
  });

  it('asks the loader for a token and resolves when one arrives', async () => {
    const frame = frameWindow();
    const bridge = createBridge(frame.win)!;
    const loader = connect(frame);
    const asked: unknown[] = [];
    loader.onmessage = (e) => {
      asked.push(e.data);
      loader.postMessage({ type: 'svc-token', v: 1, token: jwt(HOST), expiresAt: '2099-01-01T00:00:00Z' });
    };
    await expect(bridge.requestToken()).resolves.toBe(true);
    expect(asked).toEqual([{ type: 'svc-token-request', v: 1 }]);
  });

  it('gives up on a token request that is refused or never answered', async () => {
    const frame = frameWindow();
    const bridge = createBridge(frame.win)!;
    expect(await bridge.requestToken()).toBe(false); // no port yet
    const loader = connect(frame);
    loader.onmessage = () =>
      loader.postMessage({ type: 'svc-session-error', v: 1, reason: 'token_denied', message: 'm' });
    await vi.waitFor(() => expect(loader.onmessage).toBeTruthy());
    expect(await bridge.requestToken()).toBe(false);
    loader.onmessage = null;
    vi.useFakeTimers();
    const pending = bridge.requestToken();
    await vi.advanceTimersByTimeAsync(TOKEN_REQUEST_TIMEOUT_MS);
    expect(await pending).toBe(false);
  });
});

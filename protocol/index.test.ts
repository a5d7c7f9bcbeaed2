import { describe, expect, it } from 'vitest';
import { createEvent, isConnectMessage, isResizeEvent, isSvcEvent, isTokenMessage } from './index.ts';

describe('protocol guards', () => {
  it('accept well-formed events and refuse everything else', () => {
    expect(isSvcEvent(createEvent('svc-ready', 'w1', { calculator: 'rmd' }))).toBe(true);
    expect(isSvcEvent({ type: 'svc-ready', v: 2, widgetId: 'w1', payload: {} })).toBe(false);
    expect(isSvcEvent({ type: 'svc-evil', v: 1, widgetId: 'w1', payload: {} })).toBe(false);
    expect(isSvcEvent({ type: 'svc-ready', v: 1, payload: {} })).toBe(false);
    expect(isSvcEvent('svc-ready')).toBe(false);
    expect(isSvcEvent(null)).toBe(false);
  });

  it('treat the legacy resize names as resizes', () => {
    for (const type of ['svc-resize', 'svc-embed-resize', 'alt-embed-resize'] as const) {
      expect(isResizeEvent(createEvent(type, 'w', { height: 300 }))).toBe(true);
    }
    expect(isResizeEvent(createEvent('svc-lead', 'w', { leadId: 'l', calculator: 'rmd' }))).toBe(false);
  });

  it('check handshake messages', () => {
    expect(isConnectMessage({ type: 'svc-connect', v: 1, widgetId: 'w' })).toBe(true);
    expect(isTokenMessage({ type: 'svc-token', v: 1, token: 't', expiresAt: 'x', apiUrl: 'http://a' })).toBe(
      true,
    );
    expect(isTokenMessage({ type: 'svc-token', v: 1, token: 5 })).toBe(false);
  });
});

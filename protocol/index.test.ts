import { describe, expect, it } from 'vitest';
import {
  createMessage,
  EVENT_TYPES,
  isConnectMessage,
  isLoaderPortMessage,
  isResizeMessage,
  isSvcMessage,
  isTokenRequestMessage,
  type PayloadOf,
  type SvcMessage,
} from './index.ts';

const RULES = { id: 'us-estate-2026', taxYear: 2026, effectiveDate: '2026-01-01' };

/** One valid payload per event name; the table below breaks each in turn. */
const VALID: { [T in keyof PayloadOf]: PayloadOf[T] } = {
  'svc-ready': { calculator: 'rmd' },
  'svc-resize': { height: 300 },
  'svc-embed-resize': { height: 0 },
  'alt-embed-resize': { height: 12.5 },
  'svc-result': {
    resultId: 'res_1',
    calculator: 'estate-tax',
    state: 'NY',
    inputs: {},
    outputs: { totalTax: 1 },
    ruleSet: RULES,
  },
  'svc-lead': { leadId: 'lead_1', calculator: 'rmd' },
  'svc-error': { reason: 'network', message: 'Check the connection.' },
};

describe('isSvcMessage', () => {
  it.each(EVENT_TYPES)('accepts a well-formed %s', (type) => {
    expect(isSvcMessage(createMessage(type, 'w1', VALID[type] as never))).toBe(true);
  });

  it('covers every event name in its table', () => {
    expect(Object.keys(VALID).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it.each([
    ['a string', 'svc-ready'],
    ['null', null],
    ['another version', { type: 'svc-ready', v: 2, widgetId: 'w', payload: { calculator: 'rmd' } }],
    ['an unknown type', { type: 'svc-evil', v: 1, widgetId: 'w', payload: {} }],
    ['no widgetId', { type: 'svc-ready', v: 1, payload: { calculator: 'rmd' } }],
    ['no payload', { type: 'svc-ready', v: 1, widgetId: 'w' }],
    ['a ready without calculator', createMessage('svc-ready', 'w', {} as never)],
    ['a resize without height', createMessage('svc-resize', 'w', {} as never)],
    ['a resize with NaN', createMessage('svc-resize', 'w', { height: Number.NaN })],
    ['a negative resize', createMessage('alt-embed-resize', 'w', { height: -1 })],
    [
      'a result without resultId',
      createMessage('svc-result', 'w', { ...VALID['svc-result'], resultId: 1 as never }),
    ],
    [
      'a result with a numeric state',
      createMessage('svc-result', 'w', { ...VALID['svc-result'], state: 5 as never }),
    ],
    [
      'a lead with a numeric resultId',
      createMessage('svc-lead', 'w', { leadId: 'l', calculator: 'c', resultId: 1 as never }),
    ],
    [
      'an error with an unknown reason',
      createMessage('svc-error', 'w', { reason: 'oops' as never, message: 'x' }),
    ],
    ['an error without message', { type: 'svc-error', v: 1, widgetId: 'w', payload: { reason: 'network' } }],
  ])('refuses %s', (_name, value) => {
    expect(isSvcMessage(value)).toBe(false);
  });
});

describe('isResizeMessage', () => {
  it.each([
    ['svc-resize', true],
    ['svc-embed-resize', true],
    ['alt-embed-resize', true],
    ['svc-lead', false],
    ['svc-ready', false],
  ] as const)('%s → %s', (type, expected) => {
    expect(isResizeMessage(createMessage(type, 'w', VALID[type] as never) as SvcMessage)).toBe(expected);
  });
});

describe('handshake guards', () => {
  it.each([
    [{ type: 'svc-connect', v: 1, widgetId: 'w' }, true],
    [{ type: 'svc-connect', v: 1 }, false],
    [{ type: 'svc-connect', v: 2, widgetId: 'w' }, false],
    [{ type: 'svc-init', v: 1, widgetId: 'w' }, false],
  ])('isConnectMessage(%j) → %s', (value, expected) => {
    expect(isConnectMessage(value)).toBe(expected);
  });

  it.each([
    [{ type: 'svc-init', v: 1, token: 't', expiresAt: 'x', apiUrl: 'http://a' }, true],
    [{ type: 'svc-init', v: 1, token: 't', expiresAt: 'x' }, false],
    [{ type: 'svc-token', v: 1, token: 't', expiresAt: 'x' }, true],
    [{ type: 'svc-token', v: 1, token: 5, expiresAt: 'x' }, false],
    [{ type: 'svc-session-error', v: 1, reason: 'token_denied', message: 'm' }, true],
    [{ type: 'svc-session-error', v: 1, reason: 'nope', message: 'm' }, false],
    [{ type: 'svc-token-request', v: 1 }, false],
    [{ type: 'svc-token', v: 2, token: 't', expiresAt: 'x' }, false],
    [null, false],
  ])('isLoaderPortMessage(%j) → %s', (value, expected) => {
    expect(isLoaderPortMessage(value)).toBe(expected);
  });

  it.each([
    [{ type: 'svc-token-request', v: 1 }, true],
    [{ type: 'svc-token-request', v: 0 }, false],
    [{ type: 'svc-token', v: 1 }, false],
  ])('isTokenRequestMessage(%j) → %s', (value, expected) => {
    expect(isTokenRequestMessage(value)).toBe(expected);
  });
});

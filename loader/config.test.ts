import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configFromScript, findTargets } from './config.ts';
import { reasonFor } from './reasons.ts';
import { EMBED } from './testing.ts';

function script(attrs: Record<string, string>, src = `${EMBED}/loader.js`): HTMLScriptElement {
  const el = document.createElement('script');
  if (src) el.src = src;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => vi.restoreAllMocks());

describe('configFromScript', () => {
  it.each([
    [
      'the API URL written in by the embed host',
      {},
      'https://api.svc.test',
      { apiUrl: 'https://api.svc.test' },
    ],
    [
      'data-api over the written-in URL',
      { 'data-api': 'https://other.test/' },
      'https://api.svc.test',
      { apiUrl: 'https://other.test' },
    ],
    [
      'data-api when nothing was written in',
      { 'data-api': 'https://api.test' },
      '__SVC_API_URL__',
      { apiUrl: 'https://api.test' },
    ],
    ['data-calculator', { 'data-calculator': 'rmd' }, 'https://a.test', { defaultCalculator: 'rmd' }],
    ['estate-tax by default', {}, 'https://a.test', { defaultCalculator: 'estate-tax', embedOrigin: EMBED }],
    ['data-target', { 'data-target': '.calc' }, 'https://a.test', { target: '.calc' }],
    [
      'theming, state, language, mount and legacy events',
      {
        'data-theme': 'dark',
        'data-accent': '#1f4e79',
        'data-radius': '4',
        'data-font': 'inherit',
        'data-state': 'NY',
        'data-lang': 'es',
        'data-mount': 'manual',
        'data-legacy-events': 'off',
      },
      'https://a.test',
      {
        theme: 'dark',
        accent: '#1f4e79',
        radius: '4',
        font: 'inherit',
        state: 'NY',
        lang: 'es',
        manual: true,
        legacyEvents: false,
      },
    ],
    ['legacy events on by default', {}, 'https://a.test', { legacyEvents: true, manual: false }],
  ])('reads %s', (_name, attrs, apiUrl, expected) => {
    expect(configFromScript(script({ 'data-key': 'SVC-KEY', ...attrs }), apiUrl)).toMatchObject({
      licenseKey: 'SVC-KEY',
      ...expected,
    });
  });

  it.each([
    ['no data-key', script({}), 'https://a.test', /data-key/],
    ['an empty data-key', script({ 'data-key': '  ' }), 'https://a.test', /data-key/],
    ['no API URL at all', script({ 'data-key': 'K' }), '__SVC_API_URL__', /data-api/],
    ['no script', null, 'https://a.test', /loader.js/],
  ])('does not start with %s, and says what to fix', (_name, tag, apiUrl, hint) => {
    expect(configFromScript(tag, apiUrl)).toBeUndefined();
    expect(String(vi.mocked(console.error).mock.calls[0]![0])).toMatch(hint);
  });
});

describe('findTargets', () => {
  const config = {
    licenseKey: 'K',
    apiUrl: 'https://a.test',
    embedOrigin: EMBED,
    defaultCalculator: 'rmd',
    legacyEvents: true,
  };

  it('finds [data-svc-calculator] containers, or what data-target selects', () => {
    document.body.innerHTML = '<div data-svc-calculator="rmd"></div><p class="x"></p><p class="x"></p>';
    expect(findTargets(document, config)).toHaveLength(1);
    expect(findTargets(document, { ...config, target: 'p.x' })).toHaveLength(2);
  });

  it('answers an invalid selector with nothing and a console message', () => {
    expect(findTargets(document, { ...config, target: '##' })).toEqual([]);
    expect(console.error).toHaveBeenCalled();
  });
});

describe('reasonFor', () => {
  it.each([
    [401, 'INVALID_LICENSE', 'token_denied'],
    [403, 'DOMAIN_NOT_ALLOWED', 'domain_not_allowed'],
    [400, 'WRONG_KEY_KIND', 'wrong_key_kind'],
    [403, 'FORBIDDEN', 'token_denied'],
    [429, 'RATE_LIMITED', 'rate_limited'],
    [400, 'INVALID_REQUEST', 'token_denied'],
    [500, 'INTERNAL_ERROR', 'unknown'],
    [503, undefined, 'unknown'],
  ])('%d %s → %s', (status, code, reason) => {
    expect(reasonFor(status, code).reason).toBe(reason);
  });

  it('passes the API’s own message on (it says which key goes where)', () => {
    expect(reasonFor(400, 'WRONG_KEY_KIND', 'Use the publishable key').message).toBe(
      'Use the publishable key',
    );
  });
});

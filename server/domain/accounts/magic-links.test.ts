import { describe, expect, it } from 'vitest';
import { safeNextPath } from './magic-links.ts';

describe('safeNextPath: where a sign-in may continue (no open redirect)', () => {
  it.each([
    ['/portal/leads?status=new', '/portal/leads?status=new'],
    [
      '/oauth/authorize?response_type=code&site_domain=a.com',
      '/oauth/authorize?response_type=code&site_domain=a.com',
    ],
    [
      '/oauth/authorize/mcp?response_type=code&client_id=mcpc_a',
      '/oauth/authorize/mcp?response_type=code&client_id=mcpc_a',
    ],
    ['//evil.example/portal', null],
    ['https://evil.example/portal', null],
    ['/oauth/authorizex?a=1', null],
    ['/oauth/authorize/mcpx?a=1', null],
    ['/oauth/token?a=1', null],
    ['/portal\\..\\evil', null],
    [`/portal/${'a'.repeat(2000)}`, null],
    ['', null],
  ])('%s → %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

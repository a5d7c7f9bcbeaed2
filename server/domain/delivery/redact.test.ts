import { describe, expect, it } from 'vitest';
import { INSPECTOR_BODY_BYTES, REDACTED, redactBody, redactHeaders } from './redact.ts';

describe('what the delivery inspector stores', () => {
  it.each([
    ['authorization', 'Bearer abc.def'],
    ['Proxy-Authorization', 'Basic dXNlcjpwYXNz'],
    ['cookie', 'sid=42'],
    ['set-cookie', ['a=1; HttpOnly', 'b=2']],
    ['webhook-signature', 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='],
    ['x-api-key', 'k_123'],
    ['X-Auth-Token', 'tok'],
    ['x-session-id', 's'],
    ['x-client-secret', 's'],
  ])('redacts the header %s', (name, value) => {
    expect(redactHeaders({ [name]: value })[name.toLowerCase()]).toBe(REDACTED);
  });

  it('keeps ordinary headers, lower-cased, arrays joined', () => {
    expect(
      redactHeaders({ 'Content-Type': 'application/json', 'webhook-id': 'msg_1', vary: ['a', 'b'] }),
    ).toEqual({ 'content-type': 'application/json', 'webhook-id': 'msg_1', vary: 'a, b' });
  });

  it('redacts credentials inside bodies: JSON fields, form fields, bearer values, JWTs, known key formats', () => {
    const body = [
      '{"ok":true,"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-x","password":"hunter2",',
      '"note":"Authorization: Bearer abcdefghijklmnop","key":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}',
      ' refresh_token=xyz123&name=Zoe',
    ].join('');
    const { body: stored } = redactBody(body);
    expect(stored).not.toMatch(/eyJhbGci|hunter2|abcdefghijklmnop|whsec_Mf|xyz123/);
    expect(stored).toContain('"ok":true');
    expect(stored).toContain('name=Zoe');
    expect(stored).toContain(REDACTED);
  });

  it('caps a stored body and says so', () => {
    const { body, truncated } = redactBody('é'.repeat(INSPECTOR_BODY_BYTES));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(INSPECTOR_BODY_BYTES);
    expect(truncated).toBe(true);
    expect(redactBody('short').truncated).toBe(false);
  });
});

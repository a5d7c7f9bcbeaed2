import { describe, expect, it } from 'vitest';
import { parseCli, toRequest, UsageError } from './commands.ts';

const request = (argv: string[]) => {
  const parsed = parseCli(argv);
  return toRequest(parsed.positionals, parsed.values);
};

describe('svc user invite', () => {
  it('maps to the admin API and prints the link', () => {
    const req = request([
      'user',
      'invite',
      '--account',
      'acct_1',
      '--email',
      'a@b.example',
      '--role',
      'viewer',
    ]);
    expect(req).toMatchObject({
      method: 'POST',
      path: '/admin/v1/users/invite',
      body: { accountId: 'acct_1', email: 'a@b.example', role: 'viewer' },
    });
    expect(req.render({ userId: 'user_1', expiresAt: 'later', link: 'http://localhost/portal/x' })).toContain(
      'http://localhost/portal/x',
    );
  });

  it.each([
    [['user', 'invite', '--account', 'a', '--email', 'e@x.example', '--role', 'boss'], /--role/],
    [['user', 'invite', '--email', 'e@x.example', '--role', 'owner'], /--account/],
    [['user', 'invite', '--account', 'a', '--role', 'owner'], /--email/],
  ])('refuses %j', (argv, message) => {
    expect(() => request(argv)).toThrow(UsageError);
    expect(() => request(argv)).toThrow(message);
  });
});

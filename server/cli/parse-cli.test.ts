import { describe, expect, it } from 'vitest';
import { parseCli } from './commands.ts';

describe('parseCli', () => {
  it.each([['-Xy3kq9ZPmN0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0u'], ['--leading-dashes-in-a-challenge'], ['-']])(
    'takes an option value that begins with a dash as the value: %s',
    (challenge) => {
      const parsed = parseCli([
        'connect-code',
        'create',
        '--code-challenge',
        challenge,
        '--license',
        'lic_1',
      ]);
      expect(parsed.values['code-challenge']).toBe(challenge);
      expect(parsed.values.license).toBe('lic_1');
      expect(parsed.positionals).toEqual(['connect-code', 'create']);
    },
  );

  it('still reads an option after an option that was given no value', () => {
    expect(() => parseCli(['license', 'show', '--license', '--json'])).toThrow();
    expect(parseCli(['license', 'show', '--json', '-h']).help).toBe(true);
  });
});

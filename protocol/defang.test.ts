import { describe, expect, it } from 'vitest';
import { defang } from './defang.ts';

describe('defang: visitor text never reads as a link', () => {
  it.each([
    ['http://spam.example/win', 'hxxp://spam[.]example/win'],
    ['HTTPS://Spam.Example', 'HxxPS://Spam[.]Example'],
    ['visit spam.example now', 'visit spam[.]example now'],
    ['www.casino-bonus.top', 'www[.]casino-bonus[.]top'],
    ['see 192.0.2.1/x', 'see 192[.]0[.]2[.]1/x'],
    ['ftp://files.example', 'ftp[:]//files[.]example'],
    ['spam\u3002example', 'spam[.]example'],
    ['spam\uff0eexample', 'spam[.]example'],
    ['xn--bcher-kva.ch', 'xn--bcher-kva[.]ch'],
    ['already hxxps://spam[.]example', 'already hxxps://spam[.]example'],
  ])('%s → %s', (input, expected) => {
    expect(defang(input)).toBe(expected);
  });

  it.each(['Zoë Ødegård', 'J.R. Smith', 'Anne-Marie Smith Jr.', 'Net worth 1.5 million', "O'Brien & Søn"])(
    'leaves plain names alone: %s',
    (name) => {
      expect(defang(name)).toBe(name);
    },
  );

  it('is idempotent', () => {
    const once = defang('Go to https://a.b.example and www.x.example');
    expect(defang(once)).toBe(once);
  });
});

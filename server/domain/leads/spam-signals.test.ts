import { describe, expect, it } from 'vitest';
import { blockOf, hasLink } from './spam-signals.ts';

describe('the link detector (link_in_name)', () => {
  it.each([
    // People's names, however they type them.
    ['Dr.Jones', false],
    ['J.R.R. Tolkien', false],
    ['Mary-Jane O\u2019Neil', false],
    ["Mary-Jane O'Neil", false],
    ['St.John', false],
    ['St.John Smith', false],
    ['Mr.J.Smith', false],
    ['Ada Lovelace Jr.', false],
    ['Zoë Ødegård', false],
    ['Anne-Marie St. Clair', false],
    ['李小龍', false],
    ['Dr. Jones, Esq.', false],
    // Links, however they are dressed.
    ['visit spam.example', true],
    ['http://x.y', true],
    ['www.foo.com', true],
    ['WWW.FOO.COM', true],
    ['bit.ly/abc', true],
    ['Win at https://spam.example/x', true],
    ['Spam.Com', true],
    ['Cheap.Pills.Example/buy', true],
    ['see 192.0.2.1', true],
    ['spam\u3002example', true],
    ['ftp://files.example', true],
    ['Dr.jones.com', true],
  ])('%s → %s', (name, link) => {
    expect(hasLink(name)).toBe(link);
  });
});

describe('blockOf', () => {
  it.each([
    ['2001:db8:77:1::/64', '2001:db8:77:'],
    ['2001:db8:0:0::/64', '2001:db8:0:'],
    ['203.0.113.0/24', null],
    [null, null],
  ])('%s → %s', (net, block) => {
    expect(blockOf(net)).toBe(block);
  });
});

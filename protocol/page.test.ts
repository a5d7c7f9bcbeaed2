import { describe, expect, it } from 'vitest';
import { PAGE_MAX_LENGTH, pageOfText } from './page.ts';

describe('pageOf (pageOfText): the host page as stored with results and leads', () => {
  it.each([
    ['https://firm.example/estate?utm=mail&email=a@b.c#calc', 'https://firm.example/estate'],
    ['http://shop.example:8080/', 'http://shop.example:8080/'],
    ['https://Firm.Example/Estate%20Planning', 'https://firm.example/Estate%20Planning'],
    ['https://user:pw@firm.example/x', 'https://firm.example/x'],
    ['javascript:alert(1)', undefined],
    ['file:///etc/passwd', undefined],
    ['about:blank', undefined],
    ['not a url', undefined],
    [`https://firm.example/${'a'.repeat(PAGE_MAX_LENGTH)}`, undefined],
  ])('%s → %s', (href, page) => {
    expect(pageOfText(href)).toBe(page);
  });
});

import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/**
 * The text of a page or mail written with Hono's `html` tag, the one way the server writes HTML:
 * the tag escapes every interpolated value (& < > " ' become entities) unless it is itself an
 * `html` fragment, so nothing is escaped by hand, or twice. Hono answers with a promise only when
 * a value is one; the server's documents interpolate none, so a promise here is a programming
 * error and throws rather than send "[object Promise]".
 */
export function htmlText(document: HtmlEscapedString | Promise<HtmlEscapedString>): string {
  if (document instanceof Promise) throw new TypeError('an html document interpolated a promise');
  return document.toString();
}

/** One value escaped for HTML text or a quoted attribute, for templates filled by replacement. */
export const escapeHtml = (value: string): string => htmlText(html`${value}`);

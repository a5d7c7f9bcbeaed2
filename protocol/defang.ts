/**
 * Visitor text shown to a firm (alert mails, the portal) must never become a link: a mail client
 * or a reader would follow `spam.example` or `http://…` as readily as the firm's own links.
 * `defang` rewrites URL-like text the way security teams share indicators — `hxxp://`,
 * `spam[.]example`, `192[.]0[.]2[.]1` — so it stays readable and is no longer recognised as a
 * URL. One function for every place that shows visitor text; it imports nothing, so the server's
 * mails and the portal share it.
 *
 * @example defang('Win at https://spam.example/x') === 'Win at hxxps://spam[.]example/x'
 */
export function defang(text: string): string {
  return text
    .replace(/\b(h)(?:tt|xx)(ps?):\/\//gi, (_m, h: string, s: string) => `${h}xx${s}://`)
    .replace(/\b(?!hxxps?:)([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
    .replace(HOST_LIKE, (host) => host.replace(DOTS, '[.]'));
}

/** Full stop, ideographic and fullwidth full stops: browsers read all of them as dots in a host. */
export const DOTS = /[.\u3002\uff0e\uff61]/g;

/**
 * A dotted name whose last label has two letters or more (`spam.example`, `xn--bcher-kva.ch`), or
 * a dotted-quad address. Single-letter labels (`J.R. Smith`) and plain numbers (`1.5`) stay.
 */
export const HOST_LIKE =
  /(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?[.\u3002\uff0e\uff61])+(?:xn--[a-z0-9-]+|\p{L}{2,63})(?![\p{L}\p{N}])|\b\d{1,3}(?:[.\u3002\uff0e\uff61]\d{1,3}){3}\b/gu;

import { config } from 'zod';

/**
 * Imported first by the widget entry, before any calculator schema is built. Zod otherwise
 * probes `new Function` to decide whether to compile parsers; the page's CSP forbids eval, and
 * Chromium reports the probe as a violation even though zod catches the error.
 */
config({ jitless: true });

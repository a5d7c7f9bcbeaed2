import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const PAGES_DIR = resolve(import.meta.dirname, 'widget/w');
/** One HTML entry per calculator (`widget/w/<slug>.html`); they share one hashed script and stylesheet. */
const pages = readdirSync(PAGES_DIR).filter((f) => f.endsWith('.html'));

/**
 * Widget pages: dist/embed/w/<slug>.html with content-hashed assets under dist/embed/assets/.
 * JSX goes through oxc with Preact's automatic runtime (no Babel preset needed).
 */
export default defineConfig({
  root: resolve(import.meta.dirname, 'widget'),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: resolve(import.meta.dirname, 'dist/embed'),
    emptyOutDir: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: Object.fromEntries(pages.map((page) => [page.replace(/\.html$/, ''), resolve(PAGES_DIR, page)])),
    },
  },
});

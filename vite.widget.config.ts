import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const PAGES = ['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd'];

/** Widget pages: dist/embed/w/<slug>.html with content-hashed assets under dist/embed/assets/. */
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
      input: Object.fromEntries(PAGES.map((p) => [p, resolve(import.meta.dirname, `widget/w/${p}.html`)])),
    },
  },
});

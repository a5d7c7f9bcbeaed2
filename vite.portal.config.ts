import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The firm portal: dist/portal/index.html with content-hashed assets under dist/portal/assets/,
 * served by the API at /portal (server/routes/portal/portal-pages.ts). No inline script or style
 * survives the build (the CSP forbids them): the module preload polyfill is off, CSS is a file.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, 'portal'),
  base: '/portal/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: resolve(import.meta.dirname, 'dist/portal'),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});

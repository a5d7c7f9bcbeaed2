import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * One widget page per build: `SVC_PAGE=<slug> vite build -c vite.widget.config.ts` writes
 * dist/embed/w/<slug>.html with exactly one content-hashed script and one stylesheet under
 * dist/embed/assets/, holding only that calculator's code (`npm run build:embed` runs it for
 * every page in widget/w). JSX goes through oxc with Preact's automatic runtime.
 */
const page = process.env.SVC_PAGE;
if (!page || !/^[a-z0-9-]+$/.test(page))
  throw new Error('Set SVC_PAGE to a page of widget/w, e.g. estate-tax');

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
      input: { [page]: resolve(import.meta.dirname, 'widget/w', `${page}.html`) },
      output: {
        codeSplitting: false,
        // Every page's stylesheet is the same file: one download for a page with several widgets.
        assetFileNames: (asset) =>
          asset.names.some((n) => n.endsWith('.css'))
            ? 'assets/widget-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
      },
    },
  },
});

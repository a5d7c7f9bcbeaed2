import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/**
 * One widget page per build: `SVC_PAGE=<slug> vite build -c vite.widget.config.ts` writes
 * dist/embed/w/<slug>.html with exactly one content-hashed script and one stylesheet under
 * dist/embed/assets/, holding only that calculator's code (`npm run build:embed` runs it for
 * every page in widget/w). JSX goes through oxc with Preact's automatic runtime.
 */
const page = process.env.SVC_PAGE;
if (!page || !/^[a-z0-9-]+$/.test(page))
  throw new Error('Set SVC_PAGE to a page of widget/w, e.g. estate-tax');

/**
 * The stylesheet goes into the page as a `<style>` element: the page's script waits for its
 * stylesheet, so a separate file put one more request (over HTTP/1.1, a second connection) on the
 * way to `svc-ready`. The embed host allows exactly that element by its hash in the page's CSP
 * (server/embed-host.ts); no 'unsafe-inline'.
 */
const inlineStylesheet: Plugin = {
  name: 'svc-inline-stylesheet',
  enforce: 'post',
  generateBundle(_options, bundle) {
    for (const page of Object.values(bundle)) {
      if (page.type !== 'asset' || !page.fileName.endsWith('.html')) continue;
      page.source = String(page.source).replace(
        /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
        (tag, file: string) => {
          const css = bundle[file];
          if (css?.type !== 'asset') return tag;
          delete bundle[file];
          return `<style>${String(css.source).trim()}</style>`;
        },
      );
    }
  },
};

export default defineConfig({
  plugins: [inlineStylesheet],
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
      output: { codeSplitting: false },
    },
  },
});

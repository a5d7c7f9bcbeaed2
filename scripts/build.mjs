#!/usr/bin/env node
// `npm run build`: the whole of dist/, in one process.
//   dist/server  the API, emitted by `tsc -p tsconfig.build.json --noCheck` (a child process,
//                started first; the browser builds run beside it). Types are checked by
//                `npm run typecheck` (npm test runs it), not a second time here: the emit alone
//                takes 8 s of CPU where emit and check took 30.
//   dist/embed   one page per calculator (w/<slug>.html + its hashed script), loader.js, embed.mjs
//                and embed.d.ts
//   dist/mcp-app the MCP App of the `estimate` tool: app.html, script and style inline
//   dist/portal  the firm portal (index.html + hashed assets), served at /portal
// `node scripts/build.mjs embed portal` builds only the parts named (`npm run build:embed` and
// `npm run build:portal` do that). The vite configurations live here, as calls to vite's API.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'vite';

const root = join(import.meta.dirname, '..');
const at = (...parts) => join(root, ...parts);
const { version } = JSON.parse(readFileSync(at('package.json'), 'utf8'));

/** Shared by every vite run: no config file is read, only warnings and errors are printed. */
const common = { configFile: false, logLevel: 'warn' };
const preactJsx = { jsx: { runtime: 'automatic', importSource: 'preact' } };

/**
 * The stylesheet goes into a widget page as a `<style>` element: the page's script waits for its
 * stylesheet, so a separate file put one more request (over HTTP/1.1, a second connection) on the
 * way to `svc-ready`. The embed host allows exactly that element by its hash in the page's CSP
 * (server/infra/embed-host.ts); no 'unsafe-inline'.
 * @type {import('vite').Plugin}
 */
const inlineStylesheet = {
  name: 'svc-inline-stylesheet',
  enforce: 'post',
  generateBundle(_options, bundle) {
    for (const page of Object.values(bundle)) {
      if (page.type !== 'asset' || !page.fileName.endsWith('.html')) continue;
      page.source = String(page.source).replace(
        /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
        (tag, file) => {
          const css = bundle[file];
          if (css?.type !== 'asset') return tag;
          delete bundle[file];
          return `<style>${String(css.source).trim()}</style>`;
        },
      );
    }
  },
};

/**
 * Vite wraps every dynamic import in a preload helper (about 1 KB gzipped), needed only when the
 * imported chunk has dependencies to preload. The widget's one dynamic import, another language's
 * words, has none: the wrapper is unwrapped to a plain `import()` before minification drops the
 * helper as unused.
 * @type {import('vite').Plugin}
 */
const plainDynamicImport = {
  name: 'svc-plain-dynamic-import',
  enforce: 'post',
  renderChunk(code) {
    const plain = code.replace(
      /__vitePreload\(\s*\(\)\s*=>\s*(import\([^()]*\))\s*,\s*(?:\[\]|void 0|__VITE_PRELOAD__)\s*(?:,[^()]*)?\)/g,
      '$1',
    );
    return plain === code ? null : { code: plain, map: null };
  },
};

/**
 * One widget page per build: dist/embed/w/<slug>.html with exactly one content-hashed script under
 * dist/embed/assets/, holding only that calculator's code (one build for all pages would share
 * chunks between them, and each page would load more than one script), and its Spanish words as
 * one more chunk that only a Spanish widget loads.
 */
const widgetPage = (slug) =>
  build({
    ...common,
    plugins: [inlineStylesheet, plainDynamicImport],
    root: at('widget'),
    base: '/',
    oxc: preactJsx,
    build: {
      outDir: at('dist/embed'),
      emptyOutDir: false,
      target: 'es2022',
      // No preload helper: the one dynamic import (the Spanish words) has no dependencies to preload.
      modulePreload: false,
      rollupOptions: {
        input: { [slug]: at('widget/w', `${slug}.html`) },
        // The page's own code is one script; only a dynamic import (another language's words,
        // which an English page never fetches) becomes a chunk of its own.
        output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/[name]-[hash].js' },
      },
    },
  });

/**
 * loader.js: one small IIFE at a stable URL. ES2020 keeps `?.`/`??` unlowered: smaller, and every
 * browser that runs the widget pages has it. It carries the package version.
 */
const loader = () =>
  build({
    ...common,
    define: { __SVC_VERSION__: JSON.stringify(version) },
    build: {
      outDir: at('dist/embed'),
      emptyOutDir: false,
      target: 'es2020',
      lib: {
        entry: at('loader/main.ts'),
        formats: ['iife'],
        name: 'SvcLoader',
        fileName: () => 'loader.js',
      },
    },
  });

/** embed.mjs: the ESM entry for single-page apps; it loads loader.js from its own origin. */
const sdk = () =>
  build({
    ...common,
    build: {
      outDir: at('dist/embed'),
      emptyOutDir: false,
      target: 'es2020',
      lib: { entry: at('sdk/embed.ts'), formats: ['es'], fileName: () => 'embed.mjs' },
    },
  });

/**
 * The firm portal. No inline script or style survives the build (its CSP forbids them): the
 * module preload polyfill is off, CSS is a file.
 */
const portal = () =>
  build({
    ...common,
    root: at('portal'),
    base: '/portal/',
    oxc: preactJsx,
    build: {
      outDir: at('dist/portal'),
      emptyOutDir: true,
      target: 'es2022',
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
    },
  });

/**
 * The MCP App (mcp-app/): one self-contained HTML file, dist/mcp-app/app.html, its script and
 * stylesheet inline (an MCP App's view is one `ui://` resource, read over MCP; its CSP allows no
 * other origin). The server fills in the firm's name, accent and the calculators' fields when a
 * host reads it (server/mcp/app-resource.ts).
 */
async function mcpApp() {
  const built = await build({
    ...common,
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: { entry: at('mcp-app/app.ts'), formats: ['es'], fileName: () => 'app.js' },
    },
  });
  const outputs = (Array.isArray(built) ? built : [built]).flatMap((b) => b.output);
  const js = outputs.find((o) => o.type === 'chunk' && o.isEntry)?.code;
  if (!js) throw new Error('mcp-app: no script built');
  const css = readFileSync(at('mcp-app/app.css'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s*\n\s*/g, '')
    .replace(/\s*([{};:,>])\s*/g, '$1');
  // `</script` cannot occur in the minified code unescaped: a string holding it would end the element.
  if (/<\/script/i.test(js)) throw new Error('mcp-app: the script contains </script');
  const html = readFileSync(at('mcp-app/app.html'), 'utf8')
    .replace('<style>/*__SVC_CSS__*/</style>', () => `<style>${css}</style>`)
    .replace('<script>/*__SVC_JS__*/</script>', () => `<script type="module">${js.trim()}</script>`)
    .replace(/\n+/g, '\n');
  mkdirSync(at('dist/mcp-app'), { recursive: true });
  writeFileSync(at('dist/mcp-app/app.html'), html);
}

async function embed() {
  rmSync(at('dist/embed'), { recursive: true, force: true });
  const pages = readdirSync(at('widget/w'))
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => basename(f, '.html'));
  for (const slug of pages) await widgetPage(slug);
  await loader();
  await sdk();
  copyFileSync(at('sdk/embed-api.d.ts'), at('dist/embed/embed.d.ts'));
  await mcpApp();
}

/**
 * The server compiles in a child process; resolves when tsc ends, rejects when it fails. The old
 * output goes first: a file moved in the sources must not leave a stale copy that still runs
 * (`node dist/server/server/index.js` after the entry point moved to `main/index.js`).
 */
function server() {
  rmSync(at('dist/server'), { recursive: true, force: true });
  return new Promise((resolve, reject) => {
    const tsc = spawn(at('node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--noCheck'], {
      cwd: root,
      stdio: 'inherit',
    });
    tsc.on('error', reject);
    tsc.on('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`tsc -p tsconfig.build.json --noCheck: ${signal ?? `exit ${code}`}`)),
    );
  });
}

const PARTS = { server, embed, portal };
const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in PARTS)) {
    console.error(`unknown part ${name}; parts: ${Object.keys(PARTS).join(', ')} (none: all)`);
    process.exit(2);
  }
}
const parts = wanted.length ? wanted : Object.keys(PARTS);
const t0 = performance.now();
const serverDone = parts.includes('server') ? server() : Promise.resolve();
// Keep a failure of the server build from going unobserved while the browser builds run.
serverDone.catch(() => {});
try {
  if (parts.includes('embed')) await embed();
  if (parts.includes('portal')) await portal();
  await serverDone;
} catch (error) {
  console.error(`build failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
if (process.stdout.isTTY)
  console.log(`built ${parts.join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

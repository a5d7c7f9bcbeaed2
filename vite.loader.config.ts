import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as {
  version: string;
};

/**
 * loader.js: one small IIFE at a stable URL (dist/embed/loader.js), built after the widget pages
 * (`npm run build:embed`). ES2020 keeps `?.`/`??` unlowered: smaller, and every browser that
 * runs the widget pages has it.
 */
export default defineConfig({
  define: { __SVC_VERSION__: JSON.stringify(version) },
  build: {
    outDir: resolve(import.meta.dirname, 'dist/embed'),
    emptyOutDir: false,
    target: 'es2020',
    lib: {
      entry: resolve(import.meta.dirname, 'loader/main.ts'),
      formats: ['iife'],
      name: 'SvcLoader',
      fileName: () => 'loader.js',
    },
  },
});

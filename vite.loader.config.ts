import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** loader.js: one small IIFE at a stable URL (dist/embed/loader.js). */
export default defineConfig({
  build: {
    outDir: resolve(import.meta.dirname, 'dist/embed'),
    emptyOutDir: false,
    target: 'es2019',
    lib: {
      entry: resolve(import.meta.dirname, 'loader/main.ts'),
      formats: ['iife'],
      name: 'SvcLoader',
      fileName: () => 'loader.js',
    },
  },
});

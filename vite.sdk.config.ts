import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** embed.mjs: the ESM entry for single-page apps (dist/embed/embed.mjs), loads loader.js from its own origin. */
export default defineConfig({
  build: {
    outDir: resolve(import.meta.dirname, 'dist/embed'),
    emptyOutDir: false,
    target: 'es2020',
    lib: {
      entry: resolve(import.meta.dirname, 'sdk/embed.ts'),
      formats: ['es'],
      fileName: () => 'embed.mjs',
    },
  },
});

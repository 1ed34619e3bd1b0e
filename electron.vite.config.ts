import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Every entry is set explicitly: Canopy's folders are not electron-vite's defaults.
export default defineConfig({
  main: {
    build: {
      // uuid and secretlint's preset are ESM-only; main is CommonJS, so bundle it instead of requiring it at run time.
      externalizeDeps: { exclude: ['uuid', '@secretlint/secretlint-rule-preset-recommend'] },
      // Worker threads' entries sit beside index.js (threads/worker-script.ts finds them there).
      lib: {
        entry: {
          index: resolve(__dirname, 'electron/main.ts'),
          'search-worker': resolve(__dirname, 'electron/search/search-worker.ts'),
          'index-parse-worker': resolve(__dirname, 'electron/search/index-parse-worker.ts'),
          'session-worker': resolve(__dirname, 'electron/repo/session-worker.ts'),
          'secrets-worker': resolve(__dirname, 'electron/secrets/secrets-worker.ts'),
        },
      },
      outDir: 'out/main',
    },
  },
  preload: {
    build: {
      lib: { entry: { index: resolve(__dirname, 'preload/index.ts') } },
      outDir: 'out/preload',
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      chunkSizeWarningLimit: 1500,
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});

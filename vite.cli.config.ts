import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// `canopy` CLI: electron/cli/index.ts → out/cli/index.cjs, CommonJS for Node 20, with the worker threads'
// entries beside it (out/cli/search-worker.cjs, session-worker.cjs; code both use goes to out/cli/chunks). Node built-ins
// stay external; everything else (uuid is ESM-only) is bundled so the file runs on its own, except
// better-sqlite3 (a native addon) and pg (optional native parts, dynamic requires): loaded from node_modules at run time.
export default defineConfig({
  build: {
    ssr: true,
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    rollupOptions: {
      // trash: ESM-only with its macOS/Windows helpers beside its files: imported from node_modules at run time.
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'better-sqlite3', 'pg', 'trash'],
      input: {
        index: resolve(__dirname, 'electron/cli/index.ts'),
        'search-worker': resolve(__dirname, 'electron/search/search-worker.ts'),
        'index-parse-worker': resolve(__dirname, 'electron/search/index-parse-worker.ts'),
        'session-worker': resolve(__dirname, 'electron/repo/session-worker.ts'),
        'secrets-worker': resolve(__dirname, 'electron/secrets/secrets-worker.ts'),
      },
      output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name].cjs' },
    },
  },
  ssr: { noExternal: true, external: ['better-sqlite3', 'pg', 'trash'], target: 'node' },
});

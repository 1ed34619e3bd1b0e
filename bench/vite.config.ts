import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// `npm run bench`: bench/*.ts → out/bench/*.cjs (CommonJS for Node 20, like the CLI build). Node
// built-ins stay external; pi's packages are never bundled (the pi child imports them at run time),
// nor better-sqlite3 (a native addon).
const entries = (
  process.env.BENCH_ENTRIES ?? 'run,child-canopy,child-search,child-secrets,child-live,child-store,child-serve'
).split(',');

export default defineConfig({
  build: {
    ssr: true,
    outDir: resolve(__dirname, '../out/bench'),
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    rollupOptions: {
      input: {
        ...Object.fromEntries(entries.map((name) => [name, resolve(__dirname, `${name}.ts`)])),
        // The app's worker threads, found beside the bench's bundles (electron/threads/worker-script.ts).
        'search-worker': resolve(__dirname, '../electron/search/search-worker.ts'),
        'index-parse-worker': resolve(__dirname, '../electron/search/index-parse-worker.ts'),
        'session-worker': resolve(__dirname, '../electron/repo/session-worker.ts'),
        'secrets-worker': resolve(__dirname, '../electron/secrets/secrets-worker.ts'),
      },
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), /^@earendil-works\//, 'better-sqlite3'],
      output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
    },
  },
  ssr: { noExternal: true, target: 'node' },
});

import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// `canopy` CLI: electron/cli/index.ts → out/cli/index.cjs, one CommonJS file for Node 20. Node built-ins
// stay external; everything else (uuid is ESM-only) is bundled so the file runs on its own, except
// better-sqlite3: a native addon, loaded from node_modules at run time.
export default defineConfig({
  build: {
    ssr: resolve(__dirname, 'electron/cli/index.ts'),
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'better-sqlite3'],
      output: { format: 'cjs', entryFileNames: 'index.cjs' },
    },
  },
  ssr: { noExternal: true, external: ['better-sqlite3'], target: 'node' },
});

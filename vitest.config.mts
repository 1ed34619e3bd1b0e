import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One run for every test. Renderer unit tests opt into happy-dom with a
// `// @vitest-environment happy-dom` comment; everything else runs in node.
export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Search indexes built by tests stay out of the user's cache folder.
    env: {
      CANOPY_CACHE_DIR: join(tmpdir(), `canopy-test-cache-${process.pid}`),
      // The share ledger and redaction settings too.
      CANOPY_DATA_DIR: join(tmpdir(), `canopy-test-data-${process.pid}`),
      // And the OS trash (Linux: $XDG_DATA_HOME/Trash) the keep wing's tests move files to.
      XDG_DATA_HOME: join(tmpdir(), `canopy-test-xdg-${process.pid}`),
    },
    reporters: ['default'],
  },
});

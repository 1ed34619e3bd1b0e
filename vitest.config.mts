import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Projects are chosen by top-level folder and file name, never by a list of files, so tests can move
// between folders: `npm run test:unit` is the fast loop, `npm test` runs every project.
const E2E = ['test/e2e/**', 'test/**/*.e2e.test.ts'];
const SCALE = ['test/scale/**', 'test/**/*.scale.test.ts'];
const DIFFERENTIAL = ['test/differential/**', 'test/**/*.differential.test.ts'];
const FUZZ = ['test/fuzz/**', 'test/**/*.fuzz.test.ts'];

const project = (name: string, include: string[], exclude: string[] = [], testTimeout?: number) => ({
  extends: true as const,
  test: { name, include, exclude: ['**/node_modules/**', ...exclude], ...(testTimeout ? { testTimeout } : {}) },
});
const tests = (globs: string[]) => globs.flatMap((g) => (g.endsWith('/**') ? [`${g}/*.test.{ts,tsx}`] : [g]));

// Renderer unit tests opt into happy-dom with a `// @vitest-environment happy-dom` comment;
// everything else runs in node.
export default defineConfig({
  plugins: [react()],
  test: {
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
    projects: [
      // Pure and in-process tests: everything not in a heavier project below.
      project('unit', ['test/**/*.test.ts', 'test/**/*.test.tsx'], [...E2E, ...SCALE, ...DIFFERENTIAL, ...FUZZ]),
      // Heavy by design: a ceiling that only a hang reaches (load slows them, it must not fail them).
      project('scale', tests(SCALE), [], 900_000),
      project('differential', tests(DIFFERENTIAL)),
      // A ceiling that only a hang reaches: each fuzz request has its own limit.
      project('fuzz', tests(FUZZ), [], 900_000),
      // Chromium against `canopy serve`: needs `npm run build` first.
      project('e2e', tests(E2E)),
    ],
  },
});

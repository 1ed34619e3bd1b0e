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
    reporters: ['default'],
  },
});

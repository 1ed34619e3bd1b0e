#!/usr/bin/env node
// Runs vitest once for every test and ends with a plain summary line: "N passed, N failed, N skipped".
const { spawnSync } = require('node:child_process');
const { mkdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const report = join(root, 'test-output', 'vitest.json');
mkdirSync(join(root, 'test-output'), { recursive: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numTotalTests === 0) {
    console.error('no test was executed');
    process.exit(1);
  }
} catch (err) {
  console.error(`could not read the vitest report: ${err.message}`);
}
process.exit(run.status ?? 1);

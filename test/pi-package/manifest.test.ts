import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_DIR } from './pi-harness';

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

describe('the pi package manifest (pi install <path>)', () => {
  const pkg = read(join(PACKAGE_DIR, 'package.json'));

  it('is versioned with Canopy', () => {
    expect(pkg.version).toBe(read(join(PACKAGE_DIR, '..', 'package.json')).version);
  });

  it("declares its extension in pi's manifest field, and the file is there", () => {
    expect(pkg.keywords).toContain('pi-package');
    expect(pkg.pi.extensions.length).toBeGreaterThan(0);
    for (const e of pkg.pi.extensions) expect(existsSync(join(PACKAGE_DIR, e)), e).toBe(true);
  });

  it('lists the packages pi supplies as peers only, never as dependencies (pi warns otherwise)', () => {
    const hostProvided = ['@earendil-works/pi-coding-agent', '@earendil-works/pi-ai', 'typebox'];
    for (const name of hostProvided) expect(pkg.dependencies?.[name], name).toBeUndefined();
    expect(Object.keys(pkg.peerDependencies)).toEqual(['@earendil-works/pi-coding-agent', 'typebox']);
  });

  it("`pi install <path>` (pi's own CLI) adds it, and `pi list` shows it", () => {
    const agentDir = mkdtempSync(join(tmpdir(), 'canopy-pi-install-'));
    try {
      const pi = (...args: string[]) =>
        spawnSync(
          process.execPath,
          [
            '--import',
            join(__dirname, 'node20.mjs'),
            join(PACKAGE_DIR, '../node_modules/@earendil-works/pi-coding-agent/dist/cli.js'),
            ...args,
          ],
          { env: { ...process.env, PI_CODING_AGENT_DIR: agentDir }, encoding: 'utf8', timeout: 60_000 },
        );
      const installed = pi('install', PACKAGE_DIR);
      expect(installed.status, installed.stderr).toBe(0);
      const settings = read(join(agentDir, 'settings.json'));
      expect(settings.packages.map((p: string) => resolve(agentDir, p))).toEqual([PACKAGE_DIR]);
      expect(pi('list').stdout).toContain(PACKAGE_DIR);
    } finally {
      rmSync(agentDir, { recursive: true, force: true });
    }
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
});

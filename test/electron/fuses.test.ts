/** The fuses electron-builder flips at packaging (the binary cannot be packaged here, so the config is checked). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '../..');
const build = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).build as {
  electronFuses?: Record<string, boolean>;
  asar?: boolean;
};
const schema = JSON.parse(readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as {
  definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
};

describe('electron fuses at packaging', () => {
  it('turn off running as Node, NODE_OPTIONS and --inspect; load only the integrity-checked asar', () => {
    expect(build.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // OnlyLoadAppFromAsar needs the asar (electron-builder's default).
    expect(build.asar).not.toBe(false);
  });

  it('uses only keys electron-builder knows', () => {
    const known = Object.keys(schema.definitions.FuseOptionsV1.properties);
    expect(Object.keys(build.electronFuses ?? {}).filter((k) => !known.includes(k))).toEqual([]);
  });
});

import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInsideRoots } from '../../electron/repo/confine';
import { CanopyError } from '../../electron/shared/errors';
import { tempDir } from './helpers';

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CanopyError);
  return (err as CanopyError).code;
}

async function layout() {
  const base = await realpath(await tempDir());
  const root = join(base, 'root');
  await mkdir(join(root, 'proj'), { recursive: true });
  await writeFile(join(root, 'proj', 's.jsonl'), '{}\n');
  await mkdir(join(base, 'root-evil'));
  await writeFile(join(base, 'root-evil', 'x.jsonl'), '{}\n');
  await writeFile(join(base, 'outside.jsonl'), '{}\n');
  return { base, root };
}

describe('resolveInsideRoots', () => {
  it('returns the real path of a file inside a root', async () => {
    const { root } = await layout();
    expect(await resolveInsideRoots([root], join(root, 'proj', '..', 'proj', 's.jsonl'))).toBe(
      join(root, 'proj', 's.jsonl'),
    );
  });

  it('refuses ../ escapes and sibling directories that share the root as a name prefix', async () => {
    const { base, root } = await layout();
    expect(await codeOf(resolveInsideRoots([root], join(root, 'proj', '..', '..', 'outside.jsonl')))).toBe(
      'outside_roots',
    );
    expect(await codeOf(resolveInsideRoots([root], join(base, 'root-evil', 'x.jsonl')))).toBe('outside_roots');
  });

  it('refuses symlinks inside a root that point outside it (file and directory links)', async () => {
    const { base, root } = await layout();
    await symlink(join(base, 'outside.jsonl'), join(root, 'proj', 'link.jsonl'));
    await symlink(base, join(root, 'dirlink'));
    expect(await codeOf(resolveInsideRoots([root], join(root, 'proj', 'link.jsonl')))).toBe('outside_roots');
    expect(await codeOf(resolveInsideRoots([root], join(root, 'dirlink', 'outside.jsonl')))).toBe('outside_roots');
  });

  it('accepts files under a root that is itself a symlink, and the second of several roots', async () => {
    const { base, root } = await layout();
    await symlink(root, join(base, 'root-link'));
    expect(
      await resolveInsideRoots(
        [join(base, 'missing'), join(base, 'root-link')],
        join(base, 'root-link', 'proj', 's.jsonl'),
      ),
    ).toBe(join(root, 'proj', 's.jsonl'));
  });

  it('reports a missing file as not_found and refuses everything when no root exists', async () => {
    const { base, root } = await layout();
    expect(await codeOf(resolveInsideRoots([root], join(root, 'proj', 'nope.jsonl')))).toBe('not_found');
    expect(await codeOf(resolveInsideRoots([join(base, 'missing')], join(root, 'proj', 's.jsonl')))).toBe(
      'outside_roots',
    );
    expect(await codeOf(resolveInsideRoots([], join(root, 'proj', 's.jsonl')))).toBe('outside_roots');
  });
});

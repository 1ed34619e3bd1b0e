import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../electron/repo/catalog';
import { listSessions } from '../../electron/repo/sessions';
import { header, projectDirName, tempDir, user, writeSession } from './helpers';

describe('listing confines by real path before reading a byte', () => {
  it('a .jsonl link (or a linked directory) pointing outside the roots is outside_roots, not invalid_session', async () => {
    const root = await tempDir('canopy-root-');
    const outside = await tempDir('canopy-outside-');
    // Like /etc/passwd: not a session; reading its first line would make it invalid_session.
    await writeFile(join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    await writeSession(join(outside, 'dir'), 'real.jsonl', [
      header('outside-session', '/secret'),
      user('a', null, 'hi'),
    ]);
    const proj = join(root, projectDirName('/p'));
    await writeSession(proj, 'ok.jsonl', [header('inside-session', '/p'), user('a', null, 'hi')]);
    await symlink(join(outside, 'passwd'), join(proj, 'passwd.jsonl'));
    await symlink(join(outside, 'dir'), join(root, 'linked-project'));
    // A link that stays inside the roots is still read.
    await symlink(join(proj, 'ok.jsonl'), join(proj, 'alias.jsonl'));

    const listing = await listSessions([root]);
    expect(listing.sessions.map((s) => s.path).sort()).toEqual([join(proj, 'alias.jsonl'), join(proj, 'ok.jsonl')]);
    expect(listing.skipped.map((k) => [k.path, k.error.code]).sort()).toEqual(
      [
        [join(proj, 'passwd.jsonl'), 'outside_roots'],
        [join(root, 'linked-project', 'real.jsonl'), 'outside_roots'],
      ].sort(),
    );
    const rows = await new SessionCatalog({ roots: [root] }).list();
    expect(rows.skipped.map((k) => k.error.code)).toEqual(['outside_roots', 'outside_roots']);
    expect(JSON.stringify(rows)).not.toContain('/secret');
  });
});

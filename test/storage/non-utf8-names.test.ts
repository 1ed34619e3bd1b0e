import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSessionFiles } from '../../electron/storage/header-probe';
import { listSessionFiles } from '../../electron/storage/list-dir';
import { header, jsonl, tempDir } from '../repo/helpers';

describe('a session file whose name is not UTF-8', () => {
  it('is reported with its name as escaped bytes (not as a missing file); the other files list', async () => {
    const root = await tempDir('canopy-names-');
    const dir = join(root, '--p--');
    mkdirSync(dir);
    const text = jsonl([header('s1', '/p')]);
    writeFileSync(Buffer.from(`${dir}/bad-\xff\xfe.jsonl`, 'latin1'), text);
    writeFileSync(join(dir, 'real-\uFFFD.jsonl'), text);
    writeFileSync(join(dir, 'good.jsonl'), text);
    for (const listed of [await listSessionFiles([root]), await probeSessionFiles([root])]) {
      expect(listed.files.map((f) => f.path.slice(dir.length + 1)).sort()).toEqual(['good.jsonl', 'real-\uFFFD.jsonl']);
      expect(listed.errors).toEqual([
        {
          path: join(dir, 'bad-\\xff\\xfe.jsonl'),
          code: 'not_utf8',
          message: expect.stringContaining('bad-\\xff\\xfe.jsonl') as string,
        },
      ]);
    }
  });
});

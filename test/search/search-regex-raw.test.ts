import fc from 'fast-check';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchEntry, parseSearchQuery } from '../../electron/search/rules/search-query';
import { searchFields } from '../../electron/search/rules/search-text';
import { SearchService } from '../../electron/search/search-service';
import { entry, LOCAL_PATTERNS, NONLOCAL_PATTERNS, writeLine } from '../fixtures/regex-lines';
import { header, projectDirName, tempDir } from '../repo/helpers';

type Rec = Record<string, unknown>;

/** Every hit of a `re:` by parsing every line and matching its text with pi's rule: no pre-test at all. */
function expected(files: { path: string; lines: string[] }[], pattern: string): string[] {
  const r = parseSearchQuery(`re:${pattern}`);
  if (!r.ok) throw new Error(r.error);
  const out: string[] = [];
  for (const { path, lines } of files)
    lines.forEach((line, i) => {
      if (i === 0) return;
      const f = searchFields(JSON.parse(line) as Rec);
      if (matchEntry(r.query, [], f.text, f.thinking)) out.push(`${path}:${i + 1}:${f.id}`);
    });
  return out.sort();
}

describe('a re: with no literal (the raw pre-test)', () => {
  it('finds the same hits as parsing every line, in the byte stage and from the index', async () => {
    const root = await tempDir('canopy-regex-root-');
    const cache = await tempDir('canopy-regex-cache-');
    const files: { path: string; lines: string[] }[] = [];
    const drawn = fc.sample(fc.tuple(entry, fc.boolean()), { numRuns: 600, seed: 5 });
    for (let s = 0; s < 3; s++) {
      const cwd = `/home/alice/p${s}`;
      const lines = [JSON.stringify(header(`0000aaaa-0000-7000-8000-00000000000${s}`, cwd))];
      drawn.slice(s * 200, (s + 1) * 200).forEach(([e, escaping], i) => {
        // Unique ids that match most patterns themselves: never text, so never a hit.
        const id = `${100 + i}ab4`;
        lines.push(writeLine({ ...e, id, parentId: i ? `${99 + i}ab4` : null }, escaping));
      });
      const path = join(root, projectDirName(cwd), `s${s}.jsonl`);
      await mkdir(join(root, projectDirName(cwd)), { recursive: true });
      await writeFile(path, `${lines.join('\n')}\n`);
      files.push({ path, lines });
    }
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    const paths = new Set(files.map((f) => f.path));
    const hitsOf = async (pattern: string): Promise<string[]> =>
      (await service.query(`re:${pattern}`, { limit: 5000, paths })).hits
        .map((h) => `${h.path}:${h.line}:${h.entryId}`)
        .sort();
    const patterns = [...LOCAL_PATTERNS, ...NONLOCAL_PATTERNS];
    const want = patterns.map((p) => expected(files, p));
    // Some patterns find many entries, some none.
    expect(want.filter((w) => w.length > 20).length).toBeGreaterThan(5);
    for (const [k, p] of patterns.entries()) expect(await hitsOf(p), `bytes: ${p}`).toEqual(want[k]);
    await service.update([...paths]);
    for (const [k, p] of patterns.entries()) expect(await hitsOf(p), `index: ${p}`).toEqual(want[k]);
    // The rest of a hit's row (read for the hit alone): its role and time.
    const hit = (await service.query('re:[0-9]{3}[a-z]{2}[0-9]', { limit: 5000 })).hits;
    for (const h of hit) {
      const line = JSON.parse(files.find((f) => f.path === h.path)!.lines[h.line - 1]!) as Rec;
      expect(h.time).toBe(Date.parse(line.timestamp as string) || null);
      expect(h.role).toBe(searchFields(line).role);
    }
    service.close();
  });
});

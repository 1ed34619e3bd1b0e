import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpenGate } from '../../electron/threads/open-gate';
import { SecretsService } from '../../electron/secrets/secrets-service';
import { writePlantedSession } from '../fixtures/secrets/session';
import { hashTree, tempDir } from '../repo/helpers';

/**
 * A planted session scanned once, its cache's first finding then marked: a scan from the cached
 * offset keeps the mark, a full scan replaces it. `n`: the findings of that first scan.
 */
async function scannedWithMarkedCache() {
  const root = await tempDir('canopy-secrets-root-');
  const cache = await tempDir('canopy-secrets-cache-');
  const s = await writePlantedSession(join(root, '--work-proj--'), 2);
  const service = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
  await service.update([s.path]);
  const n = (await service.secretsOf(s.path))!.findings.length;
  const cached = JSON.parse(await readFile(service.cachePath, 'utf8'));
  cached.files[s.path].findings[0].masked = 'kept-from-cache';
  await writeFile(service.cachePath, JSON.stringify(cached));
  return { root, cache, s, n };
}

describe('the secret radar over a pi session', () => {
  it('finds every planted secret at its entry (text, tool args, results, bash, custom) and stores only masks', async () => {
    const root = await tempDir('canopy-secrets-root-');
    const cache = await tempDir('canopy-secrets-cache-');
    const s = await writePlantedSession(join(root, '--work-proj--'));
    const before = await hashTree(root);
    const service = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await service.update([s.path]);
    const found = (await service.secretsOf(s.path))!;
    expect(found.sessionId).toBe(s.sessionId);
    for (const p of s.plants) {
      const at = found.findings.filter((f) => f.entryId === p.entryId);
      expect(
        at.map((f) => f.rule),
        `${p.family} in ${p.place}`,
      ).toContain(p.rule);
    }
    // Findings only at planted entries: no decoy, id, digest or image flagged (0 of the decoys).
    const planted = new Set(s.plants.map((p) => p.entryId));
    expect(found.findings.filter((f) => !planted.has(f.entryId))).toEqual([]);
    const lines = (await readFile(s.path, 'utf8')).split('\n');
    for (const f of found.findings) expect(lines[f.line - 1]).toContain(`"id":"${f.entryId}"`);
    const cacheText = await readFile(service.cachePath, 'utf8');
    for (const p of s.plants) expect(cacheText).not.toContain(p.value);
    // No raw bytes of the session either: its tail (the end of a secret, maybe) is kept as a hash.
    const tail = (await readFile(s.path)).subarray(-64);
    expect(cacheText).not.toContain(tail.toString('hex').slice(0, 32));
    expect(cacheText).not.toContain(tail.toString('latin1').slice(-24));
    expect(await hashTree(root)).toEqual(before);
  });

  it('notices a tail rewritten in place before an append (by the hash of the tail)', async () => {
    const { root, cache, s } = await scannedWithMarkedCache();
    // The last line's text changed (same length), then a line appended: not an append-only file.
    const text = await readFile(s.path, 'utf8');
    const at = text.length - 8; // inside the last 64 bytes, which the cache knows by their hash
    const flipped = text[at] === 'x' ? 'y' : 'x';
    await writeFile(s.path, `${text.slice(0, at)}${flipped}${text.slice(at + 1)}{}\n`);
    const again = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await again.update([s.path]);
    expect((await again.secretsOf(s.path))!.findings.map((f) => f.masked)).not.toContain('kept-from-cache');
  });

  it('scans an append alone, from the last offset, and rescans a rewritten file', async () => {
    const { root, cache, s, n } = await scannedWithMarkedCache();
    const token = `ghp_${'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4'}`;
    await appendFile(
      s.path,
      `${JSON.stringify({ type: 'custom', id: 'zz1', parentId: s.mainLeaf, timestamp: '2026-03-02T00:00:00.000Z', customType: 'x', data: { t: token } })}\n`,
    );
    const again = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await again.update([s.path]);
    const after = (await again.secretsOf(s.path))!.findings;
    expect(after.length).toBe(n + 1);
    expect(after.at(-1)).toMatchObject({ entryId: 'zz1', rule: 'github' });
    expect(after[0]!.masked).toBe('kept-from-cache');
    // Rewritten in place (same size or not): scanned again from the start.
    const text = await readFile(s.path, 'utf8');
    await writeFile(s.path, text.split('\n').slice(0, 3).join('\n') + '\n');
    await again.update([s.path]);
    expect((await again.secretsOf(s.path))!.findings).toEqual([]);
  });

  it('gives way while a session opens (held), then finishes', async () => {
    const root = await tempDir('canopy-secrets-root-');
    const s = await writePlantedSession(join(root, '--work-proj--'), 3);
    const gate = new OpenGate();
    const service = new SecretsService({
      roots: [root],
      env: { CANOPY_CACHE_DIR: await tempDir('canopy-secrets-cache-') },
      gate,
    });
    let release!: () => void;
    const opening = gate.during(new Promise<void>((r) => (release = r)));
    let done = false;
    const updating = service.update([s.path]).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    release();
    await opening;
    await updating;
    expect((await service.secretsOf(s.path))!.findings.length).toBeGreaterThan(0);
  });

  it('counts asked while the first pass loads its cache see the findings of that pass (one cache, not two)', async () => {
    const root = await tempDir('canopy-secrets-root-');
    const cache = await tempDir('canopy-secrets-cache-');
    const s = await writePlantedSession(join(root, '--work-proj--'), 2);
    // A cache file from an earlier run (another session) makes each load a real read.
    const seed = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await seed.update([s.path]);
    const cached = JSON.parse(await readFile(seed.cachePath, 'utf8'));
    cached.files = { [join(root, 'gone.jsonl')]: cached.files[s.path] };
    const bulk = JSON.stringify(cached);
    // Whichever of two concurrent reads ends last used to become the cache: the pass wrote into the other.
    for (let i = 0; i < 20; i++) {
      await writeFile(seed.cachePath, bulk);
      const service = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
      const pass = service.update([s.path]);
      await Promise.resolve(); // the pass starts reading the cache, then counts are asked (the app's order)
      const early = service.counts();
      await Promise.all([early, pass]);
      expect((await service.counts()).get(s.path), `round ${i}`).toBeGreaterThan(0);
    }
  });
});

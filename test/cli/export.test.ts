import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli';
import { loadPi } from '../oracle/pi-modules';
import { writePlantedSession, type PlantedSession } from '../fixtures/secrets/session';
import { hashTree, projectDirName, tempDir } from '../repo/helpers';

let root: string;
let s: PlantedSession;
beforeEach(async () => {
  vi.stubEnv('PI_CODING_AGENT_DIR', await tempDir('canopy-agent-'));
  vi.stubEnv('CANOPY_CACHE_DIR', await tempDir('canopy-cache-'));
  vi.stubEnv('CANOPY_DATA_DIR', await tempDir('canopy-data-'));
  root = await tempDir('canopy-root-');
  s = await writePlantedSession(join(root, projectDirName('/work/proj')), 5);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('canopy export', () => {
  it.each(['html', 'md', 'jsonl'])(
    '--redact --format %s: no planted value in the export; without it they are there',
    async (format) => {
      const before = await hashTree(root);
      const plain = await cli('export', s.path, '--format', format);
      expect(plain.code).toBe(0);
      expect(s.plants.filter((p) => plain.out.includes(p.value)).length).toBeGreaterThan(0);
      const r = await cli('export', s.path, '--format', format, '--redact');
      expect(r.code).toBe(0);
      for (const p of s.plants) expect(r.out, `${p.family} in ${p.place}`).not.toContain(p.value);
      for (const p of s.plants) expect(r.err).not.toContain(p.value);
      expect(r.out).toContain('[REDACTED:github]');
      expect(r.err).toMatch(/^redacted \d+ values \(.*github \d+/m);
      expect(await hashTree(root)).toEqual(before);
    },
  );

  it("the user's literals and regexes from settings are redacted too", async () => {
    await writeFile(
      join(process.env.CANOPY_DATA_DIR!, 'redactions.json'),
      JSON.stringify({ literals: ['set up the deploy'], regexes: ['/main BRANCH end/i'] }),
    );
    const r = await cli('export', s.path, '--format', 'md', '--redact');
    expect(r.out).not.toContain('set up the deploy');
    expect(r.out).not.toContain('main branch end');
    expect(r.out).toContain('[REDACTED:custom]');
  });

  it('--format jsonl: a new pi session of the branch that pi resumes with the same context', async () => {
    const out = join(await tempDir('canopy-out-'), 'branch.jsonl');
    const r = await cli('export', s.path, '--format', 'jsonl', '--leaf', s.sideLeaf, '--out', out, '--json');
    expect(r.code).toBe(0);
    expect(r.json[0]).toMatchObject({ ok: true, path: out, leafId: s.sideLeaf });
    const pi = await loadPi();
    const source = pi.ca.SessionManager.open(s.path);
    source.branch(s.sideLeaf);
    const exported = pi.ca.SessionManager.open(out);
    expect(exported.getHeader()!.parentSession).toBe(s.path);
    expect(exported.getHeader()!.id).not.toBe(s.sessionId);
    expect(exported.getLeafId()).toBe(s.sideLeaf);
    expect(exported.buildSessionContext()).toEqual(source.buildSessionContext());
    // Redacted, it is still a session pi reads, with the branch's shape and no planted value.
    const red = join(await tempDir('canopy-out-'), 'red.jsonl');
    expect((await cli('export', s.path, '--format', 'jsonl', '--redact', '--out', red)).code).toBe(0);
    const text = await readFile(red, 'utf8');
    for (const p of s.plants) expect(text).not.toContain(p.value);
    const redSm = pi.ca.SessionManager.open(red);
    expect(redSm.getBranch().map((e) => e.id)).toEqual(
      pi.ca.SessionManager.open(s.path)
        .getBranch()
        .map((e) => e.id),
    );
  });

  it('--out never overwrites (exit 2, the file unchanged); each export is in the ledger', async () => {
    const dir = await tempDir('canopy-out-');
    const out = join(dir, 'x.html');
    expect((await cli('export', s.path, '--out', out, '--redact')).code).toBe(0);
    const first = await readFile(out, 'utf8');
    const again = await cli('export', s.path, '--out', out, '--format', 'md');
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/already_exists: refusing to overwrite/);
    expect(await readFile(out, 'utf8')).toBe(first);
    await cli('export', s.path, '--format', 'md', '--all');
    const ledger = await cli('export', '--ledger', '--json');
    expect(ledger.json).toEqual([
      expect.objectContaining({ source: s.path, format: 'md', scope: 'all', redacted: false, writtenTo: '-' }),
      expect.objectContaining({
        source: s.path,
        sessionId: s.sessionId,
        format: 'html',
        redacted: true,
        writtenTo: out,
      }),
    ]);
    expect(ledger.json[1]!.replacements).toBeGreaterThan(0);
  });

  it('bad input: unknown leaf or format is exit 2; a file that is not a session, exit 1', async () => {
    expect((await cli('export', s.path, '--leaf', 'nope')).code).toBe(2);
    expect((await cli('export', s.path, '--format', 'pdf')).code).toBe(2);
    const junk = join(root, 'junk.jsonl');
    await writeFile(junk, 'not json\n');
    expect((await cli('export', junk)).code).toBe(1);
  });
});

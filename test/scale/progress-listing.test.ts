/**
 * Progress and cancellation through open and list, and the batched header probe behind listing:
 * same files, order and errors as the directory listing it replaces, never blocking on odd files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { openIndexed, type OpenOptions } from '../../electron/repo/session-file';
import { SessionStore } from '../../electron/repo/session-store';
import { listSessions } from '../../electron/repo/sessions';
import { probeSessionFiles } from '../../electron/storage/header-probe';
import { listSessionFiles } from '../../electron/storage/list-dir';

const root = mkdtempSync(join(tmpdir(), 'canopy-progress-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let sessions = new SessionStore();
beforeEach(() => (sessions = new SessionStore()));
const openSession = (path: string, opts?: OpenOptions) => sessions.parsed(path, opts);

const big = join(root, 'big.jsonl');
writeSessionFile(big, { targetBytes: 5 * 1024 * 1024, seed: 9, scale: 0.3 });

describe('open: progress and cancel', () => {
  it('reports bytes read after each 1 MiB chunk, ending at the file size', async () => {
    const calls: Array<[number, number]> = [];
    const s = await openIndexed(big, { onProgress: (done, total) => calls.push([done, total]), progressDelayMs: 0 });
    expect(s.entries.length).toBeGreaterThan(100);
    expect(calls.length).toBeGreaterThanOrEqual(5);
    const total = calls[0]![1];
    expect(calls.every(([, t]) => t === total)).toBe(true);
    for (let i = 1; i < calls.length; i++) expect(calls[i]![0]).toBeGreaterThan(calls[i - 1]![0]);
    expect(calls[calls.length - 1]![0]).toBe(total);
  });

  it('stays silent when the open is faster than the delay', async () => {
    const calls: number[] = [];
    await openIndexed(big, { onProgress: (done) => calls.push(done), progressDelayMs: 60_000 });
    expect(calls).toEqual([]);
  });

  it('stops at the next chunk when aborted, and a later open is not affected', async () => {
    const ac = new AbortController();
    let seen = 0;
    const err = await openSession(big, {
      signal: ac.signal,
      progressDelayMs: 0,
      onProgress: () => {
        seen++;
        ac.abort();
      },
    }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(seen).toBe(1);
    const s = await openSession(big);
    expect(s.entries.length).toBeGreaterThan(100);
  });

  it('an already aborted signal rejects before reading', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(openIndexed(big, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

function store(): string {
  const sessions = join(root, 'store');
  for (let p = 0; p < 6; p++) {
    const dir = join(sessions, `--project-${p}--`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 120; i++) {
      const id = `s-${p}-${i}`;
      writeSessionFile(join(dir, `2026-01-0${1 + (i % 9)}T00-00-00-000Z_${id}.jsonl`), {
        targetBytes: 1e9,
        maxEntries: 3,
        seed: p * 1000 + i,
        scale: 0.1,
        sessionId: id,
        cwd: `/p${p}`,
      });
    }
  }
  return sessions;
}

describe('list: progress, cancel and the header probe', () => {
  const sessions = store();

  it('reports files done of files found, and can be cancelled between batches', async () => {
    const calls: Array<[number, number]> = [];
    const r = await listSessions([sessions], { onProgress: (d, t) => calls.push([d, t]), progressDelayMs: 0 });
    expect(r.sessions).toHaveLength(720);
    expect(calls[calls.length - 1]).toEqual([720, 720]);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    const ac = new AbortController();
    const err = await listSessions([sessions], {
      signal: ac.signal,
      progressDelayMs: 0,
      onProgress: () => ac.abort(),
    }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
  });

  it('finds the same files in the same order, with the same errors, as listSessionFiles', async () => {
    const odd = join(root, 'odd');
    const p = join(odd, '--p--');
    mkdirSync(p, { recursive: true });
    writeFileSync(join(odd, 'flat.jsonl'), '{"type":"session","version":3,"id":"flat","timestamp":"t","cwd":"/"}\n');
    writeFileSync(join(p, 'a.jsonl'), '{"type":"session","version":3,"id":"a","timestamp":"t","cwd":"/"}\r\n{"x":1}\n');
    writeFileSync(join(p, 'b.jsonl.tmp'), 'staging');
    writeFileSync(join(p, 'notes.txt'), 'x');
    writeFileSync(join(p, 'empty.jsonl'), '');
    mkdirSync(join(odd, 'dir.jsonl'));
    writeFileSync(join(odd, 'dir.jsonl', 'inner.jsonl'), 'no newline at all');
    symlinkSync(join(p, 'a.jsonl'), join(p, 'link.jsonl'));
    symlinkSync(join(p, 'gone.jsonl'), join(p, 'dangling.jsonl'));
    symlinkSync(join(p, 'loop.jsonl'), join(p, 'loop.jsonl'));
    symlinkSync(p, join(odd, '--linked--'));
    let fifo = false;
    try {
      execFileSync('mkfifo', [join(p, 'fifo.jsonl')]);
      symlinkSync(join(p, 'fifo.jsonl'), join(p, 'fifo-link.jsonl'));
      fifo = true;
    } catch {
      // no mkfifo here: the FIFO case is skipped
    }
    const roots = [join(root, 'absent'), odd];
    const expected = await listSessionFiles(roots);
    const got = await probeSessionFiles(roots, { batch: 3 });
    expect(got.files.map((f) => [f.path, f.root, f.dir, f.size, f.mtimeMs])).toEqual(
      expected.files.map((f) => [f.path, f.root, f.dir, f.size, f.mtimeMs]),
    );
    const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : 1);
    expect([...got.errors].sort(byPath).map((e) => [e.path, e.code])).toEqual(
      [...expected.errors].sort(byPath).map((e) => [e.path, e.code]),
    );
    const first = Object.fromEntries(got.files.map((f) => [f.path.slice(odd.length + 1), f.first]));
    expect(first['--p--/a.jsonl']).toEqual({
      text: '{"type":"session","version":3,"id":"a","timestamp":"t","cwd":"/"}',
      complete: true,
      length: 66,
    });
    expect(first['--p--/empty.jsonl']).toBeNull();
    expect(first['dir.jsonl/inner.jsonl']).toEqual({ text: 'no newline at all', complete: false, length: 17 });
    if (fifo) expect(got.files.some((f) => f.path.includes('fifo'))).toBe(false);
  });
});

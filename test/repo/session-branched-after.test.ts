/**
 * A fork's branch point (issue 25) over forks pi's own createBranchedSession wrote: the last user
 * message copied from the parent, kept when the fork grows (the summary pass resumes).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSummary, SummaryResumes } from '../../electron/repo/session-summary';
import { readJsonl, writePiStore, type PiStore } from '../store-views/pi-store';

let store: PiStore;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-branched-'));
  store = await writePiStore(join(tmp, 'sessions'));
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const jsonl = readJsonl;

/** Independent of the pass: entries whose id the parent also has are the copied ones. */
function copiedFrom(parent: string, child: string): { lastUser: string; count: number } {
  const parentIds = new Set(jsonl(parent).map((e) => e.id as string));
  const copied = jsonl(child)
    .slice(1)
    .filter((e) => parentIds.has(e.id as string));
  const users = copied.filter((e) => e.type === 'message' && e.message.role === 'user');
  const content = users.at(-1)!.message.content;
  return { lastUser: typeof content === 'string' ? content : content[0].text, count: copied.length };
}

const summarize = (path: string, resumes?: SummaryResumes) => {
  const s = statSync(path);
  return computeSummary(path, { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino }, resumes);
};

describe('summary: where a fork branched', () => {
  it("is the parent's last user message before the fork point, for a /fork and a /clone", async () => {
    const fork = await summarize(store.files.fork);
    const expected = copiedFrom(store.files.a, store.files.fork);
    expect(expected.lastUser).toBe('question 1'); // forked before the second user message
    expect(fork.branchedAfter).toBe(expected.lastUser);
    expect(fork.ownFirstMessage).not.toBe(fork.branchedAfter);

    const clone = await summarize(store.files.clone);
    const fromFork = copiedFrom(store.files.fork, store.files.clone);
    expect(clone.branchedAfter).toBe(fromFork.lastUser);
  });

  it('is absent for a session that is not a fork', async () => {
    const plain = await summarize(store.files.a);
    expect(plain.branchedAfter ?? null).toBeNull();
  });

  it('is kept when the fork grows and the pass resumes from where it ended', async () => {
    const resumes = new SummaryResumes(8);
    const before = await summarize(store.files.fork, resumes);
    const size = statSync(store.files.fork).size;
    const leaf = jsonl(store.files.fork).at(-1)!;
    const now = new Date(Date.parse(leaf.timestamp as string) + 60_000).toISOString();
    const entry = {
      type: 'message',
      id: 'appended1',
      parentId: leaf.id,
      timestamp: now,
      message: { role: 'user', content: 'a later question', timestamp: Date.parse(now) },
    };
    await appendFile(store.files.fork, `${JSON.stringify(entry)}\n`);
    expect(resumes.get(store.files.fork)?.endOffset).toBe(size); // the next pass reads only the append
    const after = await summarize(store.files.fork, resumes);
    expect(after.messageCount).toBe(before.messageCount + 1);
    expect(after.branchedAfter).toBe(before.branchedAfter);
    expect(after.branchedAfter).toBe('question 1');
  });
});

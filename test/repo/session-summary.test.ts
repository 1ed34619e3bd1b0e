import { appendFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeSummary, SummaryResumes } from '../../electron/repo/session-summary';
import { assistant, header, jsonl, tempDir, user } from './helpers';

const facts = async (path: string) => {
  const s = await stat(path);
  return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
};

describe('a summary continued from where its pass ended', () => {
  it('counts appended lines once, a final line without newline only until it is complete', async () => {
    const path = join(await tempDir(), 's.jsonl');
    await writeFile(path, jsonl([header('s', '/p'), user('u1', null, 'first')]));
    const resumes = new SummaryResumes(10);
    expect((await computeSummary(path, await facts(path), resumes)).entryCount).toBe(1);
    const a1 = JSON.stringify(assistant('a1', 'u1', 'answer'));
    await appendFile(path, a1.slice(0, 20));
    // A torn last line is not JSON yet: an issue in this answer only.
    expect(await computeSummary(path, await facts(path), resumes)).toMatchObject({ entryCount: 1, issueCount: 1 });
    await appendFile(path, `${a1.slice(20)}\n${JSON.stringify(user('u2', 'a1', 'again'))}`);
    const grown = await computeSummary(path, await facts(path), resumes);
    expect(grown).toMatchObject({ entryCount: 3, messageCount: 3, issueCount: 0, firstMessage: 'first' });
    // The same as a pass from the first line.
    expect(await computeSummary(path, await facts(path))).toEqual(grown);
  });

  it('a file replaced by a shorter one is read again from its first line', async () => {
    const path = join(await tempDir(), 's.jsonl');
    await writeFile(path, jsonl([header('s', '/p'), user('u1', null, 'one'), user('u2', 'u1', 'two')]));
    const resumes = new SummaryResumes(10);
    expect((await computeSummary(path, await facts(path), resumes)).entryCount).toBe(2);
    await writeFile(path, jsonl([header('s', '/p'), user('x', null, 'x')]));
    expect(await computeSummary(path, await facts(path), resumes)).toMatchObject({ entryCount: 1, firstMessage: 'x' });
  });
});

/**
 * `canopy doctor` on a fork that lost its compaction boundary (pi ≤ 0.84.x, #8990): pi 1.6.0 forks
 * a compacted session whose boundary is a label; the old fork kept the label's id as the boundary.
 * The doctor reads the fork's source and gives it pi 1.6.0's boundary back.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { loadPi } from '../oracle/pi-modules';
import { assistant, linesOf, piRead, piSession, sha, text, user, writeLines } from './pi-sessions';

let tmp: string;
let source: string;
let fork: string;
let labelId: string;
let keptId: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-doctor-fork-'));
  const dir = join(tmp, 'sessions');
  source = await piSession(dir, (sm) => {
    sm.appendMessage(user('first question'));
    const a1 = sm.appendMessage(assistant([text('first answer')]));
    labelId = sm.appendLabelChange(a1, 'checkpoint'); // findCutPoint can make this label the boundary
    keptId = sm.appendMessage(user('second question'));
    sm.appendMessage(assistant([text('second answer')]));
    sm.appendCompaction('the first turn, summarised', labelId, 5000);
    sm.appendMessage(user('third question'));
    sm.appendMessage(assistant([text('third answer')]));
  });
  const pi = await loadPi();
  const sm = pi.ca.SessionManager.open(source, dir);
  fork = sm.createBranchedSession(sm.getLeafId()!)!;
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The fork as pi ≤ 0.84.x wrote it: the compaction still keeps from the label the fork left out. */
function oldFork(dir: string): string {
  const lines = linesOf(fork).map((l) => {
    const e = JSON.parse(l);
    return e.type === 'compaction' ? JSON.stringify({ ...e, firstKeptEntryId: labelId }) : l;
  });
  mkdirSync(dir, { recursive: true });
  return writeLines(join(dir, 'old-fork.jsonl'), lines);
}

describe('canopy doctor on a fork that lost its compaction boundary', () => {
  it('sets the boundary to the first entry after the label in the source, as pi 1.6.0 forks', async () => {
    const pi16 = await piRead(fork, join(tmp, 'scratch'));
    expect(pi16.context.messages.map((m) => m.role)).toEqual([
      'compactionSummary',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    const damaged = oldFork(join(tmp, 'sessions'));
    // pi keeps nothing from before the compaction: the second turn is gone from the context.
    expect((await piRead(damaged, join(tmp, 'scratch'))).context.messages).toHaveLength(3);
    const before = sha(damaged);
    const run = await cli('doctor', damaged, '--json', '--write');
    expect(run.code).toBe(1);
    expect(sha(damaged)).toBe(before);
    const r = run.json[0]!;
    expect(r.marks).toHaveLength(1);
    expect(r.marks[0]).toMatchObject({ kind: 'lost_compaction_boundary', versions: 'pi ≤ 0.84.x', issue: '#8990' });
    expect(r.marks[0].repair).toContain(`boundary set to ${keptId}`);
    const fixed = await piRead(r.repairs[0].path, join(tmp, 'scratch'));
    expect(fixed.context).toEqual(pi16.context);
    expect(fixed.header.parentSession).toBe(damaged);
  });

  it('says so, and writes nothing, when the source of the fork cannot be read', async () => {
    const dir = join(tmp, 'orphaned');
    const damaged = oldFork(dir);
    const moved = join(dir, 'copy.jsonl');
    copyFileSync(damaged, moved);
    const lines = linesOf(moved).map((l, i) =>
      i === 0 ? JSON.stringify({ ...JSON.parse(l), parentSession: join(tmp, 'gone.jsonl') }) : l,
    );
    const file = writeLines(join(dir, 'no-source.jsonl'), lines);
    const run = await cli('doctor', file, '--json', '--write');
    expect(run.code).toBe(1);
    const r = run.json[0]!;
    expect(r.marks[0]).toMatchObject({ kind: 'lost_compaction_boundary', repair: null });
    expect(r.marks[0].found).toContain('cannot be read');
    expect(r.repairs).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['copy.jsonl', 'no-source.jsonl', 'old-fork.jsonl']);
  });
});

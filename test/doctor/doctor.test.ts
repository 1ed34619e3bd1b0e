/**
 * `canopy doctor` on sessions pi 1.6.0 wrote, damaged the way old pi versions did: each mark is
 * found, the repaired file loads in pi 1.6.0's SessionManager with the undamaged session's context
 * (or exactly its recoverable part), and the source is never changed.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import {
  aborted,
  assistant,
  call,
  linesOf,
  piRead,
  piSession,
  result,
  sha,
  text,
  user,
  writeLines,
} from './pi-sessions';

let tmp: string;
let n = 0;
/** A fresh folder for one test's files. */
const folder = (): string => join(tmp, `t${n++}`);
const scratch = (): string => join(tmp, 'scratch');

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-doctor-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the doctor with --write on `file`: the report, the repaired file(s), the source unchanged. */
async function repair(file: string, expectCode = 1) {
  const before = sha(file);
  const run = await cli('doctor', file, '--json', '--write');
  expect(run.err).toBe('');
  expect(run.code).toBe(expectCode);
  expect(sha(file)).toBe(before);
  const r = run.json[0]!;
  for (const f of r.repairs) expect((await piRead(f.path, scratch())).header.parentSession).toBe(file);
  return r;
}

/** A plain pi session: three turns. */
function threeTurns(dir: string) {
  return piSession(dir, (sm) => {
    sm.appendMessage(user('first question'));
    sm.appendMessage(assistant([text('first answer')]));
    sm.appendMessage(user('second question'));
    sm.appendMessage(assistant([text('second answer')]));
    sm.appendMessage(user('third question'));
    sm.appendMessage(assistant([text('third answer')]));
  });
}

describe('canopy doctor', () => {
  it('calls a session pi 1.6.0 wrote healthy, exit 0, and writes nothing', async () => {
    const dir = folder();
    const file = await threeTurns(dir);
    const run = await cli('doctor', file, '--json', '--write');
    expect(run.code).toBe(0);
    expect(run.json[0]!.marks).toEqual([]);
    expect(run.json[0]!.repairs).toEqual([]);
    expect(run.json[0]!.writer).toContain('session id is a UUIDv7: started by pi 0.67.2 or later');
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('splits two entries glued on one line (pi ≤ 0.84.3, #8345) back into the undamaged session', async () => {
    const dir = folder();
    const file = await threeTurns(dir);
    const lines = linesOf(file);
    const damaged = writeLines(join(dir, 'glued.jsonl'), [
      ...lines.slice(0, 2),
      lines[2]! + lines[3]!,
      ...lines.slice(4),
    ]);
    // pi skips the glued line: its context loses both entries and everything before them.
    expect((await piRead(damaged, scratch())).context.messages).toHaveLength(3);
    const preview = await cli('doctor', damaged);
    expect(preview.code).toBe(1);
    expect(preview.out).toContain('line 3 glued_line: line 3 holds 2 entries glued together');
    expect(preview.out).toContain('pi ≤ 0.84.3 (#8345)');
    expect(readdirSync(dir)).toHaveLength(2); // a preview writes nothing
    const r = await repair(damaged);
    expect(r.marks.map((m: any) => m.kind)).toEqual(['glued_line']);
    const fixed = await piRead(r.repairs[0].path, scratch());
    const source = await piRead(file, scratch());
    expect(fixed.dangling).toEqual([]);
    expect(fixed.context).toEqual(source.context);
    expect(fixed.path.map((e) => e.id)).toEqual(source.path.map((e) => e.id));
  });

  it('drops the cut-off entry of a glued line and re-attaches the next one: exactly the rest of the context', async () => {
    const dir = folder();
    const file = await threeTurns(dir);
    const lines = linesOf(file);
    // Line 3 (the first answer) was cut off mid-write; pi ≤ 0.84.3 glued line 4 to its rest.
    const torn = lines[2]!.slice(0, 60);
    const damaged = writeLines(join(dir, 'torn.jsonl'), [...lines.slice(0, 2), torn + lines[3]!, ...lines.slice(4)]);
    const r = await repair(damaged);
    expect(r.marks.map((m: any) => m.kind)).toEqual(['glued_line', 'missing_parent']);
    expect(r.marks[0].found).toContain('60 characters of an entry cut off');
    const fixed = await piRead(r.repairs[0].path, scratch());
    const source = await piRead(file, scratch());
    expect(fixed.context.messages).toEqual(
      source.context.messages.filter((m) => m.content?.[0]?.text !== 'first answer'),
    );
  });

  it('re-attaches an entry whose parent never reached disk (pi ≤ 1.4.x, #11460) to the entry written before it', async () => {
    const dir = folder();
    const file = await threeTurns(dir);
    const lines = linesOf(file);
    const lostId = JSON.parse(lines[2]!).id as string; // the first answer's write failed
    const damaged = writeLines(join(dir, 'lost.jsonl'), [...lines.slice(0, 2), ...lines.slice(3)]);
    expect((await piRead(damaged, scratch())).context.messages).toHaveLength(4);
    const r = await repair(damaged);
    expect(r.marks).toHaveLength(1);
    expect(r.marks[0]).toMatchObject({ kind: 'missing_parent', line: 3, versions: 'pi ≤ 1.4.x', issue: '#11460' });
    expect(r.marks[0].found).toContain(`names parent ${lostId}`);
    expect(r.marks[0].repair).toContain('the entry written just before it (line 2)');
    const fixed = await piRead(r.repairs[0].path, scratch());
    const source = await piRead(file, scratch());
    expect(fixed.dangling).toEqual([]);
    expect(fixed.context.messages).toEqual(
      source.context.messages.filter((m) => m.content?.[0]?.text !== 'first answer'),
    );
  });

  it("gives tool calls Esc left without results (pi ≤ 1.5.x, #9986) pi 1.6.0's own aborted results", async () => {
    const dir = folder();
    let t = 0;
    const turn = (withAborted: boolean) => (sm: any) => {
      sm.appendMessage(user('look around'));
      sm.appendMessage(assistant([text('three reads'), call('c1', 'read'), call('c2', 'ls'), call('c3', 'grep')]));
      const first = result('c1', 'read', 'Operation aborted', true);
      t = first.timestamp;
      sm.appendMessage(first);
      if (withAborted) {
        sm.appendMessage(aborted('c2', 'ls', t));
        sm.appendMessage(aborted('c3', 'grep', t));
      }
      sm.appendMessage(user('never mind'));
      sm.appendMessage(assistant([text('ok')]));
    };
    const old = await piSession(dir, turn(false)); // what pi ≤ 1.5.x wrote
    const now = await piSession(folder(), turn(true)); // what pi 1.6.0 writes
    const r = await repair(old);
    expect(r.marks.map((m: any) => [m.kind, m.issue])).toEqual([['orphan_tool_calls', '#9986']]);
    expect(r.marks[0].found).toContain('2 of 3 tool calls');
    const fixed = await piRead(r.repairs[0].path, scratch());
    const undamaged = await piRead(now, scratch());
    expect(fixed.context).toEqual(undamaged.context);
    expect(fixed.dangling).toEqual([]);
  });

  it('leaves a batch alone after which nothing is added to the conversation (pi may still be running it)', async () => {
    const file = await piSession(folder(), (sm) => {
      sm.appendMessage(user('go'));
      const calls = sm.appendMessage(assistant([call('c1', 'bash'), call('c2', 'bash')]));
      sm.appendMessage(result('c1', 'bash', 'done'));
      // What a fork at the assistant message re-appends after it: its labels.
      sm.appendLabelChange(calls, 'two calls');
      sm.appendSessionInfo('a name');
    });
    const run = await cli('doctor', file, '--json');
    expect(run.code).toBe(0);
  });

  it('omits the results of an omitted truncated call too (pi ≤ 1.3.x, #11227)', async () => {
    const build = (fixed: boolean) => (sm: any) => {
      sm.appendMessage(user('write it'));
      const cut = sm.appendMessage(assistant([call('w1', 'write', { path: 'a' })], 'length'));
      const res = sm.appendMessage(result('w1', 'write', 'Tool call "write" was not executed', true));
      sm.appendContextEdit(cut, null);
      if (fixed) sm.appendContextEdit(res, null);
      sm.appendMessage(user('again, shorter'));
      sm.appendMessage(assistant([text('done')]));
    };
    const old = await piSession(folder(), build(false));
    const now = await piSession(folder(), build(true));
    const before = await piRead(old, scratch());
    expect(before.context.messages.some((m) => m.role === 'toolResult')).toBe(true);
    const r = await repair(old);
    expect(r.marks.map((m: any) => [m.kind, m.versions])).toEqual([['kept_truncated_results', 'pi ≤ 1.3.x']]);
    const fixed = await piRead(r.repairs[0].path, scratch());
    expect(fixed.context).toEqual((await piRead(now, scratch())).context);
    expect(fixed.context.messages.some((m) => m.role === 'toolResult')).toBe(false);
  });

  it('notes a multi-MB edit diff (pi ≤ 1.5.x, #8036) and writes nothing: pi 1.6.0 resumes it', async () => {
    const dir = folder();
    const file = await piSession(dir, (sm) => {
      sm.appendMessage(user('edit'));
      sm.appendMessage(assistant([call('e1', 'edit')]));
      sm.appendMessage({
        ...result('e1', 'edit', 'Successfully replaced 1 block(s)'),
        details: { diff: 'x'.repeat(1.2 * 1024 * 1024) },
      });
      sm.appendMessage(assistant([text('done')]));
    });
    const r = await repair(file);
    expect(r.marks).toHaveLength(1);
    expect(r.marks[0]).toMatchObject({ kind: 'huge_edit_diff', repair: null, issue: '#8036' });
    expect(r.repairs).toEqual([]);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('splits a file holding two sessions into one file per session', async () => {
    const dir = folder();
    const a = await threeTurns(dir);
    const b = await piSession(dir, (sm) => {
      sm.appendMessage(user('a new session'));
      sm.appendMessage(assistant([text('hello again')]));
    });
    const both = writeLines(join(folder(), 'both.jsonl'), [...linesOf(a), ...linesOf(b)]);
    const r = await repair(both);
    expect(r.marks.map((m: any) => [m.kind, m.line])).toEqual([['several_sessions', linesOf(a).length + 1]]);
    expect(r.repairs.map((f: any) => [f.part, f.headerLine])).toEqual([
      [0, 1],
      [1, linesOf(a).length + 1],
    ]);
    for (const [i, src] of [a, b].entries()) {
      const fixed = await piRead(r.repairs[i].path, scratch());
      expect(fixed.context).toEqual((await piRead(src, scratch())).context);
      expect(fixed.header.cwd).toBe('/home/alice/proj');
    }
  });

  it('exits 2 for a file that is no session and goes on with the others', async () => {
    const bad = join(folder(), 'notes.jsonl');
    rmSync(bad, { force: true });
    writeLines(bad, ['{"hello":1}']);
    const good = await threeTurns(folder());
    const run = await cli('doctor', bad, good, '--json');
    expect(run.code).toBe(2);
    expect(run.json[0]!.error.code).toBe('invalid_session');
    expect(run.json[1]!.marks).toEqual([]);
    writeFileSync(bad, '');
    expect((await cli('doctor', bad)).code).toBe(2);
  });

  it('examines every session under --root', async () => {
    const root = folder();
    const file = await threeTurns(join(root, '--home-alice-proj--'));
    const lines = linesOf(file);
    writeLines(join(root, '--home-alice-proj--', 'lost.jsonl'), [...lines.slice(0, 2), ...lines.slice(3)]);
    const run = await cli('doctor', '--root', root, '--json');
    expect(run.code).toBe(1);
    expect(run.json.map((j) => j.marks.length).sort()).toEqual([0, 1]);
  });
});

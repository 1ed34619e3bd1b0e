/** The doctor's pure reading of lines: glued entries split, cut-off text told apart from entries. */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../electron/doctor/rules/diagnose';
import { readSource, splitGlued } from '../../electron/doctor/rules/source';

const header = JSON.stringify({
  type: 'session',
  version: 3,
  id: 's1',
  timestamp: '2026-11-01T00:00:00.000Z',
  cwd: '/p',
});
const entry = (id: string, parentId: string | null, text = 'hi') =>
  JSON.stringify({
    type: 'message',
    id,
    parentId,
    timestamp: '2026-11-01T00:00:01.000Z',
    message: { role: 'user', content: [{ type: 'text', text }], timestamp: 1 },
  });

describe('splitGlued', () => {
  it('splits two or three whole entries glued together', () => {
    expect(splitGlued(entry('a', null) + entry('b', 'a'))).toEqual({
      pieces: [entry('a', null), entry('b', 'a')],
      lost: '',
    });
    const three = splitGlued(entry('a', null) + entry('b', 'a') + entry('c', 'b'));
    expect(three?.pieces).toEqual([entry('a', null), entry('b', 'a'), entry('c', 'b')]);
  });

  it('keeps the entry glued after a cut-off line and names the cut-off text', () => {
    const torn = entry('a', null).slice(0, 40);
    expect(splitGlued(torn + entry('b', 'a'))).toEqual({ pieces: [entry('b', 'a')], lost: torn });
  });

  it('finds nothing glued in a line cut off right after a content block, or in text with braces', () => {
    const full = entry('a', null);
    const cut = full.slice(0, full.indexOf('}]') + 1); // ends with the whole {"type":"text",…} block
    expect(cut.endsWith('"text":"hi"}')).toBe(true);
    expect(splitGlued(cut)).toBeNull();
    expect(splitGlued(entry('a', null, 'a {"type":"x"} in a string'))).toBeNull();
    expect(splitGlued('not json at all {"a":1}')).toBeNull();
  });
});

describe('readSource', () => {
  it('cuts the file into its sessions and skips unreadable lines', () => {
    const lines = [header, entry('a', null), '{"type":"mess', header.replace('s1', 's2'), entry('b', null), '', '42'];
    const r = readSource(lines.map((text, i) => ({ line: i + 1, text })))!;
    expect(r.parts.map((p) => [p.header.line, p.entries.map((e) => e.line)])).toEqual([
      [1, [2]],
      [4, [5]],
    ]);
    expect(r.skipped).toEqual([
      { line: 3, reason: 'not a JSON object' },
      { line: 7, reason: 'not a JSON object' },
    ]);
    expect(r.marks.map((m) => [m.kind, m.line])).toEqual([['several_sessions', 4]]);
  });

  it('is null for a file whose first line is no session header', () => {
    expect(readSource([{ line: 1, text: entry('a', null) }])).toBeNull();
    expect(readSource([{ line: 1, text: '\uFEFF' + header }])).toBeNull();
    expect(readSource([])).toBeNull();
  });
});

describe('diagnose', () => {
  const env = {
    sourcePath: '/s.jsonl',
    now: '2026-12-01T00:00:00.000Z',
    newSessionId: () => 'n',
    newEntryId: () => 'e',
  };
  const read = (lines: unknown[]) => readSource(lines.map((v, i) => ({ line: i + 1, text: JSON.stringify(v) })))!;

  it('finds no orphan tool calls in a format-1 file, whose entries have no ids until pi migrates it', () => {
    const t = '2025-01-01T00:00:00.000Z';
    const v1 = read([
      { type: 'session', id: 'old', timestamp: t, cwd: '/p' },
      {
        type: 'message',
        timestamp: t,
        message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c', name: 'ls' }], stopReason: 'toolUse' },
      },
      { type: 'message', timestamp: t, message: { role: 'user', content: 'go on' } },
    ]);
    const d = diagnose(v1, new Map(), env);
    expect(d.marks).toEqual([]);
    expect(d.files).toEqual([]);
    expect(d.writer).toEqual(['header without a version: format 1, written by pi ≤ 0.30']);
  });

  it('gives a fork back the boundary its source shows only where that boundary was a label', () => {
    const t = '2026-01-01T00:00:00.000Z';
    const fork = read([
      { type: 'session', version: 3, id: 'f', timestamp: t, cwd: '/p', parentSession: '/src.jsonl' },
      { type: 'message', id: 'm1', parentId: null, timestamp: t, message: { role: 'user', content: 'hi' } },
      {
        type: 'compaction',
        id: 'c',
        parentId: 'm1',
        timestamp: t,
        summary: 's',
        firstKeptEntryId: 'k',
        tokensBefore: 1,
      },
    ]);
    const source = (kType: string) => [
      { type: kType, id: 'k', parentId: null, timestamp: t },
      { type: 'message', id: 'm1', parentId: 'k', timestamp: t },
      { type: 'compaction', id: 'c', parentId: 'm1', timestamp: t },
    ];
    const label = diagnose(fork, new Map([['/src.jsonl', source('label')]]), env);
    expect(label.marks.map((m) => [m.kind, m.repair])).toEqual([
      [
        'lost_compaction_boundary',
        'boundary set to m1, the first entry after k on the path in /src.jsonl, as pi 1.6.0 forks',
      ],
    ]);
    expect(JSON.parse(label.files[0]!.lines[2]!).firstKeptEntryId).toBe('m1');
    expect(diagnose(fork, new Map([['/src.jsonl', source('message')]]), env).marks).toEqual([]);
    const gone = diagnose(fork, new Map([['/src.jsonl', null]]), env);
    expect(gone.marks.map((m) => [m.kind, m.repair])).toEqual([['lost_compaction_boundary', null]]);
    expect(gone.files).toEqual([]);
  });
});

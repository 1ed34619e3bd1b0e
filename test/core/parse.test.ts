import { describe, expect, it } from 'vitest';
import {
  entriesFor,
  ISSUE_KIND_TO_PI,
  parseSession,
  parseSessionText,
  splitLines,
  type IssueKind,
} from '../../electron/core';
import { assistant, header, jsonl, session, user } from './helpers';

const kinds = (s: { issues: { kind: string; line: number }[] }) => s.issues.map((i) => [i.line, i.kind]);

describe('splitLines', () => {
  it.each([
    ['', []],
    ['a\n', [{ line: 1, text: 'a', complete: true }]],
    [
      'a\nb',
      [
        { line: 1, text: 'a', complete: true },
        { line: 2, text: 'b', complete: false },
      ],
    ],
    [
      'a\n\nb\n',
      [
        { line: 1, text: 'a', complete: true },
        { line: 2, text: '', complete: true },
        { line: 3, text: 'b', complete: true },
      ],
    ],
  ])('%j', (text, expected) => {
    expect(splitLines(text)).toEqual(expected);
  });
});

describe('parse: lines', () => {
  it('skips blank and whitespace-only lines without issues and keeps physical line numbers', () => {
    const s = session(['', '   ', user('a', null), '\t', assistant('b', 'a')]);
    expect(s.issues).toEqual([]);
    expect(s.entries.map((e) => [e.id, e.line])).toEqual([
      ['a', 4],
      ['b', 6],
    ]);
  });

  it('accepts CRLF line endings', () => {
    const text = jsonl([header(), user('a', null)]).replace(/\n/g, '\r\n');
    const s = parseSessionText(text);
    expect(s.issues).toEqual([]);
    expect(s.entries.map((e) => e.id)).toEqual(['a']);
  });

  it('reports an unparsable middle line as invalid_json and keeps reading', () => {
    const s = session([user('a', null), '{"type":"message",', assistant('b', 'a')]);
    expect(kinds(s)).toEqual([[3, 'invalid_json']]);
    expect(s.entries.map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('reports an unparsable final line without newline as torn_last_line', () => {
    const text = jsonl([header(), user('a', null)]) + '{"type":"mess';
    const s = parseSessionText(text);
    expect(kinds(s)).toEqual([[3, 'torn_last_line']]);
    expect(s.entries.map((e) => e.id)).toEqual(['a']);
  });

  it('accepts a valid final line without newline (pi parses it too)', () => {
    const text = jsonl([header(), user('a', null)]) + JSON.stringify(assistant('b', 'a'));
    const s = parseSessionText(text);
    expect(s.issues).toEqual([]);
    expect(s.entries.map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('reports an unparsable final line WITH newline as invalid_json', () => {
    const s = session([user('a', null), '{"type":']);
    expect(kinds(s)).toEqual([[3, 'invalid_json']]);
  });

  it('reports lines over 1 MiB but reads them', () => {
    const big = user('a', null, 'x'.repeat(1024 * 1024 + 10));
    const s = session([big]);
    expect(kinds(s)).toEqual([[2, 'line_too_long']]);
    expect(s.entries.map((e) => e.id)).toEqual(['a']);
  });
});

describe('parse: entry envelope (H3 §4.2 order)', () => {
  const base = {
    type: 'message',
    id: 'x',
    parentId: null,
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: 'user', content: 'hi' },
  };
  const cases: [string, unknown, IssueKind | null][] = [
    ['valid', base, null],
    ['null', null, 'not_an_object'],
    ['false', false, 'not_an_object'],
    ['zero', 0, 'not_an_object'],
    ['number', 42, 'not_an_object'],
    ['string', 'hello', 'not_an_object'],
    ['true', true, 'not_an_object'],
    ['array', [1, 2], 'not_an_object'],
    ['type missing', { ...base, type: undefined }, 'missing_type'],
    ['type number', { ...base, type: 7 }, 'missing_type'],
    ['type empty string passes', { ...base, type: '' }, null],
    ['id missing', { ...base, id: undefined }, 'missing_id'],
    ['id empty', { ...base, id: '' }, 'missing_id'],
    ['id number', { ...base, id: 5 }, 'missing_id'],
    ['parentId missing', { ...base, parentId: undefined }, 'invalid_parent_id'],
    ['parentId number', { ...base, parentId: 3 }, 'invalid_parent_id'],
    ['parentId empty string passes', { ...base, parentId: '' }, null],
    ['timestamp missing', { ...base, timestamp: undefined }, 'missing_timestamp'],
    ['timestamp empty', { ...base, timestamp: '' }, 'missing_timestamp'],
    ['timestamp number', { ...base, timestamp: 17 }, 'missing_timestamp'],
    ['unparsable timestamp text passes', { ...base, timestamp: 'yesterday' }, null],
    ['leaf without targetId', { type: 'leaf', id: 'l', parentId: null, timestamp: 't' }, 'invalid_target_id'],
    [
      'leaf with numeric targetId',
      { type: 'leaf', id: 'l', parentId: null, timestamp: 't', targetId: 1 },
      'invalid_target_id',
    ],
    ['leaf with null targetId', { type: 'leaf', id: 'l', parentId: null, timestamp: 't', targetId: null }, null],
    ['label without targetId passes', { type: 'label', id: 'l', parentId: null, timestamp: 't' }, null],
    ['id check before parentId check', { ...base, id: '', parentId: 5 }, 'missing_id'],
    ['type check before id check', { ...base, type: null, id: '' }, 'missing_type'],
    ['unknown type passes', { ...base, type: 'from_the_future' }, null],
    ['second header', { type: 'session', id: 'x', parentId: null, timestamp: 't' }, 'extra_header'],
  ];
  it.each(cases)('%s', (_name, value, kind) => {
    const s = parseSessionText(jsonl([header(), JSON.stringify(value)]));
    if (kind === null) {
      expect(s.issues).toEqual([]);
      expect(s.entries).toHaveLength(1);
    } else {
      expect(kinds(s)).toEqual([[2, kind]]);
      expect(entriesFor(s, 'h3')).toHaveLength(0);
      // pi's CA reader keeps every object after the header except type "session" lines; Canopy
      // drops those without a usable id too (documented in parse.ts judgeEntry).
      const v = value as Record<string, unknown> | null;
      const caKeeps =
        typeof v === 'object' &&
        v !== null &&
        !Array.isArray(v) &&
        typeof v.id === 'string' &&
        v.id !== '' &&
        v.type !== 'session';
      expect(s.entries.map((e) => e.strictInvalid)).toEqual(caKeeps ? [kind] : []);
    }
  });

  it('copies envelope fields, role and targetId out of raw', () => {
    const s = session([
      user('a', null),
      { type: 'label', id: 'l', parentId: 'a', timestamp: 't', targetId: 'a', label: 'x' },
      { type: 'leaf', id: 'f', parentId: 'l', timestamp: 't', targetId: null },
    ]);
    const [a, l, f] = s.entries;
    expect(a).toMatchObject({ id: 'a', parentId: null, type: 'message', role: 'user', line: 2 });
    expect(l).toMatchObject({ targetId: 'a', line: 3 });
    expect(f).toMatchObject({ targetId: null, line: 4 });
    expect(a!.raw.message).toEqual({ role: 'user', content: 'text of a', timestamp: 1000 });
    expect(a!.raw.id).toBe('a');
  });

  it('keeps both lines of a duplicate id and reports the later one', () => {
    const s = session([user('a', null), assistant('a', null)]);
    expect(s.entries.map((e) => e.line)).toEqual([2, 3]);
    expect(kinds(s)).toEqual([[3, 'duplicate_id']]);
    expect(s.issues[0]!.message).toContain('line 2');
  });
});

describe('parse: header', () => {
  it('takes the first parsed value as header, skipping blank and unparsable lines before it (CA)', () => {
    const text = ['', 'garbage', JSON.stringify(header()), JSON.stringify(user('a', null))].join('\n') + '\n';
    const s = parseSessionText(text);
    expect(s.fatal).toBeUndefined();
    expect(s.header?.id).toBe('sess-1');
    expect(kinds(s)).toEqual([[2, 'invalid_json']]);
    expect(s.entries.map((e) => [e.id, e.line])).toEqual([['a', 4]]);
  });

  it('skips falsy values before the header as pi does', () => {
    const text = ['null', '0', JSON.stringify(header()), JSON.stringify(user('a', null))].join('\n') + '\n';
    const s = parseSessionText(text);
    expect(s.fatal).toBeUndefined();
    expect(kinds(s)).toEqual([
      [1, 'not_an_object'],
      [2, 'not_an_object'],
    ]);
  });

  const fatalCases: [string, string, 'invalid_session' | 'unsupported_format'][] = [
    ['empty file', '', 'invalid_session'],
    ['only blank lines', '\n  \n\n', 'invalid_session'],
    ['only garbage', 'nope\n', 'invalid_session'],
    ['entry before header', jsonl([user('a', null), header()]), 'invalid_session'],
    ['header without id', jsonl([{ type: 'session', version: 3 }]), 'invalid_session'],
    ['header with numeric id', jsonl([{ type: 'session', id: 5 }]), 'invalid_session'],
    ['array first', '[1]\n', 'invalid_session'],
    ['number first', '42\n', 'invalid_session'],
    [
      'format 4 kind header',
      jsonl([{ kind: 'header', version: 4, id: 's', createdAt: 1, cwd: '/' }]),
      'unsupported_format',
    ],
    ['format 4 v:4', jsonl([{ v: 4, id: 's' }]), 'unsupported_format'],
  ];
  it.each(fatalCases)('fatal: %s', (_name, text, code) => {
    const s = parseSessionText(text);
    expect(s.fatal?.code).toBe(code);
    if (code === 'unsupported_format') {
      expect(s.fatal?.message).toBe('format 4 is not supported yet');
      expect(s.format).toBe(4);
    }
    expect(s.header).toBeNull();
    expect(s.entries).toEqual([]);
    expect(s.issues.some((i) => i.kind === 'invalid_header' || i.kind === 'unsupported_version')).toBe(true);
  });

  it('tolerates a BOM on line 1 and reports it', () => {
    const s = parseSessionText('\uFEFF' + jsonl([header(), user('a', null)]));
    expect(s.fatal).toBeUndefined();
    expect(kinds(s)).toEqual([[1, 'byte_order_mark']]);
    expect(s.entries.map((e) => e.id)).toEqual(['a']);
  });

  const headerIssues: [string, Record<string, unknown>, string | null][] = [
    ['complete header', header(), null],
    ['missing cwd', header({ cwd: undefined }), 'session header is missing cwd'],
    ['empty cwd', header({ cwd: '' }), 'session header is missing cwd'],
    ['missing timestamp', header({ timestamp: undefined }), 'session header is missing timestamp'],
    ['empty id', header({ id: '' }), 'session header is missing id'],
    ['parentSession null', header({ parentSession: null }), 'session header parentSession must be a string'],
    ['parentSession string', header({ parentSession: '/p.jsonl' }), null],
    ['metadata array', header({ metadata: [] }), 'session header metadata must be an object'],
    ['metadata null', header({ metadata: null }), 'session header metadata must be an object'],
    ['metadata object', header({ metadata: { a: 1 } }), null],
  ];
  it.each(headerIssues)('H3 header checks become issues, not failures: %s', (_name, head, message) => {
    const s = session([user('a', null)], head);
    expect(s.fatal).toBeUndefined();
    expect(s.entries).toHaveLength(1);
    expect(s.issues.map((i) => i.message)).toEqual(message ? [message] : []);
    if (message) expect(s.issues[0]).toMatchObject({ line: 1, kind: 'invalid_header' });
  });

  it.each([['3'], [4], [5]])('version %j is reported and read as v3', (version) => {
    const s = session([user('a', null)], header({ version }));
    expect(kinds(s)).toEqual([[1, 'unsupported_version']]);
    expect(s.migrated).toBe(false);
    expect(s.entries.map((e) => e.id)).toEqual(['a']);
  });

  it('keeps unknown header keys and the legacy branchedFrom', () => {
    const s = session([], header({ branchedFrom: '/old.jsonl', extra: 1 }));
    expect(s.header).toMatchObject({ branchedFrom: '/old.jsonl', extra: 1, version: 3 });
    expect(s.format).toBe(3);
  });
});

describe('ISSUE_KIND_TO_PI', () => {
  it('documents every issue kind for both readers', () => {
    for (const [kind, doc] of Object.entries(ISSUE_KIND_TO_PI)) {
      expect(doc.h3.length, kind).toBeGreaterThan(0);
      expect(doc.ca.length, kind).toBeGreaterThan(0);
    }
  });
});

describe('parseSession over an iterable', () => {
  it('accepts a generator and uses the given line numbers', () => {
    function* lines() {
      yield { line: 10, text: JSON.stringify(header()), complete: true };
      yield { line: 11, text: '{bad', complete: true };
      yield { line: 12, text: JSON.stringify(user('a', null)), complete: true };
    }
    const s = parseSession(lines());
    expect(kinds(s)).toEqual([[11, 'invalid_json']]);
    expect(s.entries[0]!.line).toBe(12);
  });
});

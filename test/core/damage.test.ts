/**
 * Damage and property tests: garbage, truncated, mutated and cyclic files never make the core
 * throw or hang, and every bad line is reported with its physical line number.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildTree,
  listTreeEntries,
  parseSessionText,
  planFork,
  readSession,
  splitLines,
  type IssueKind,
  type ParsedSession,
  type Profile,
} from '../../electron/core';
import { header, jsonl, ts } from './helpers';

type Rec = Record<string, unknown>;

const LINE_KINDS = new Set<IssueKind>([
  'invalid_json',
  'torn_last_line',
  'not_an_object',
  'missing_type',
  'missing_id',
  'invalid_parent_id',
  'missing_timestamp',
  'invalid_target_id',
  'extra_header',
]);

const TYPES = [
  'message',
  'message',
  'message',
  'compaction',
  'label',
  'leaf',
  'model_change',
  'custom_message',
  'branch_summary',
  'context_edit',
  'session_info',
  'active_tools_change',
  'weird',
];

/** A structurally plausible session: entries pointing at random earlier (or any) ids. */
const sessionArb = fc
  .record({
    n: fc.integer({ min: 0, max: 25 }),
    seed: fc.array(fc.nat(), { minLength: 200, maxLength: 200 }),
    cyclic: fc.boolean(),
  })
  .map(({ n, seed, cyclic }) => {
    let k = 0;
    const r = (m: number) => (m <= 0 ? 0 : seed[k++ % seed.length]! % m);
    const ids = Array.from({ length: n }, (_, i) => `e${i}`);
    const values: Rec[] = [];
    for (let i = 0; i < n; i++) {
      const type = TYPES[r(TYPES.length)]!;
      const pool = cyclic ? ids : ids.slice(0, i);
      const pick = () => (pool.length && r(6) ? pool[r(pool.length)]! : r(2) ? null : 'ghost');
      const e: Rec = { type, id: ids[i], parentId: i === 0 && !cyclic ? null : pick(), timestamp: ts(r(50)) };
      if (type === 'message')
        e.message = {
          role: ['user', 'assistant', 'toolResult', 'system', 'custom'][r(5)],
          content: r(4) ? 'x' : null,
          provider: 'p',
          model: 'm',
        };
      if (type === 'compaction') {
        e.summary = 's';
        e.tokensBefore = 1;
        if (r(3)) e.firstKeptEntryId = pick();
        if (r(2)) e.retainedTail = r(2) ? [] : [{ role: 'user', content: 'k' }];
      }
      if (type === 'label' || type === 'leaf' || type === 'context_edit') e.targetId = pick();
      if (type === 'label' && r(2)) e.label = r(2) ? ' lab ' : '';
      if (type === 'context_edit') e.replacement = r(2) ? null : { content: 'c' };
      if (type === 'active_tools_change') e.activeToolNames = ['a'];
      if (type === 'session_info') e.name = 'n';
      values.push(e);
    }
    return { ids, values };
  });

function everything(s: ParsedSession, ids: string[]): void {
  for (const profile of ['ca', 'h3'] as Profile[]) {
    const r = readSession(s, { profile });
    JSON.stringify(r);
    for (const id of [...ids, 'ghost', null]) readSession(s, { profile, leafId: id });
    for (const id of ids.slice(0, 5)) {
      for (const position of ['before', 'at'] as const) {
        planFork(
          s,
          { kind: 'fork', profile, entryId: id, position },
          { sourcePath: '/p', newSessionId: 'n', now: ts(1), newEntryId: () => 'x' },
        );
      }
    }
    planFork(s, { kind: 'clone', profile }, { sourcePath: '/p', newSessionId: 'n', now: ts(1), newEntryId: () => 'x' });
  }
  buildTree(s);
  listTreeEntries(s);
}

describe('garbage in, no throw', () => {
  it('arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const s = parseSessionText(text);
        everything(
          s,
          s.entries.map((e) => e.id),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary JSON values on lines after a valid header', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 15 }), (values) => {
        const text = jsonl([header(), ...values.map((v) => JSON.stringify(v) ?? 'null')]);
        const s = parseSessionText(text);
        expect(s.fatal).toBeUndefined();
        everything(
          s,
          s.entries.map((e) => e.id),
        );
        // Every non-blank line after the header is an entry or has a line-level issue; both only
        // for an entry H3 rejects and CA keeps (an object with an id but a bad envelope).
        const lines = splitLines(text);
        for (const l of lines.slice(1)) {
          if (!l.text.trim()) continue;
          const entry = s.entries.find((e) => e.line === l.line);
          const flagged = s.issues.some((i) => i.line === l.line && LINE_KINDS.has(i.kind));
          expect(entry !== undefined || flagged, `line ${l.line}: ${l.text}`).toBe(true);
          if (entry && flagged) expect(entry.strictInvalid, `line ${l.line}: ${l.text}`).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});

type Mutation =
  | { kind: 'garbage'; at: number; text: string }
  | { kind: 'truncate'; keep: number }
  | { kind: 'blank'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'delete'; at: number }
  | { kind: 'cut'; at: number; keep: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('garbage' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.constant('{"type":'),
      fc.constant('null'),
      fc.constant('[]'),
    ),
  }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('blank' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), keep: fc.nat() }),
);

/** Applies mutations to entry lines (the header, line 1, is left alone). Returns the file text. */
function mutate(lines: string[], mutations: Mutation[]): string {
  const body = lines.slice(1);
  let torn: string | null = null;
  for (const m of mutations) {
    const i = body.length ? ('at' in m ? m.at % body.length : 0) : 0;
    if (m.kind === 'garbage') body.splice(i, 0, m.text.replace(/\n/g, ' '));
    else if (m.kind === 'blank') body.splice(i, 0, '   ');
    else if (m.kind === 'duplicate' && body.length) body.splice(i, 0, body[i]!);
    else if (m.kind === 'delete' && body.length) body.splice(i, 1);
    else if (m.kind === 'cut' && body.length) body[i] = body[i]!.slice(0, m.keep % (body[i]!.length + 1));
    else if (m.kind === 'truncate' && body.length) {
      const last = body.pop()!;
      torn = last.slice(0, m.keep % (last.length + 1));
    }
  }
  const text = [lines[0]!, ...body].join('\n') + '\n';
  return torn === null ? text : text + torn;
}

describe('mutated sessions', () => {
  it('never throw, and every bad line is reported at its physical line', () => {
    fc.assert(
      fc.property(sessionArb, fc.array(mutationArb, { maxLength: 6 }), ({ ids, values }, mutations) => {
        const lines = [JSON.stringify(header()), ...values.map((v) => JSON.stringify(v))];
        const text = mutate(lines, mutations);
        const s = parseSessionText(text);
        expect(s.fatal).toBeUndefined();
        everything(s, ids);
        const physical = splitLines(text);
        for (const l of physical.slice(1)) {
          if (!l.text.trim()) continue;
          let parsed: unknown;
          let parses = true;
          try {
            parsed = JSON.parse(l.text);
          } catch {
            parses = false;
          }
          const lineIssues = s.issues.filter((i) => i.line === l.line && LINE_KINDS.has(i.kind)).map((i) => i.kind);
          const isEntry = s.entries.some((e) => e.line === l.line);
          if (!parses) expect(lineIssues).toEqual([l.complete ? 'invalid_json' : 'torn_last_line']);
          else if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
            expect(lineIssues).toEqual(['not_an_object']);
          expect(isEntry !== lineIssues.length > 0, `line ${l.line}`).toBe(true);
        }
        // every duplicate id after its first line is reported
        const seen = new Set<string>();
        for (const e of s.entries) {
          if (seen.has(e.id)) expect(s.issues.some((i) => i.line === e.line && i.kind === 'duplicate_id')).toBe(true);
          seen.add(e.id);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('cyclic and branching sessions: path invariants', () => {
  it('paths are parent chains without repeats; H3 path is a suffix of the CA path', () => {
    fc.assert(
      fc.property(sessionArb, ({ ids, values }) => {
        const s = parseSessionText(jsonl([header(), ...values]));
        const byId = new Map(s.entries.map((e) => [e.id, e]));
        for (const id of ids) {
          const caPath = readSession(s, { profile: 'ca', leafId: id }).pathIds;
          const h3Path = readSession(s, { profile: 'h3', leafId: id }).pathIds;
          for (const p of [caPath, h3Path]) {
            expect(new Set(p).size).toBe(p.length);
            expect(p[p.length - 1]).toBe(id);
            for (let i = 1; i < p.length; i++) expect(byId.get(p[i]!)!.parentId).toBe(p[i - 1]);
          }
          expect(caPath.slice(caPath.length - h3Path.length)).toEqual(h3Path);
          const first = byId.get(caPath[0]!)!;
          const walkEndsCleanly = !first.parentId || !byId.has(first.parentId);
          const r = readSession(s, { profile: 'ca', leafId: id });
          expect(walkEndsCleanly || r.issues.some((i) => i.kind === 'cycle')).toBe(true);
        }
        const t = buildTree(s);
        const reached: string[] = [];
        const stack = [...t.roots];
        while (stack.length) {
          const x = stack.pop()!;
          reached.push(x);
          stack.push(...(t.children.get(x) ?? []));
        }
        expect(reached.sort()).toEqual([...new Set(s.entries.map((e) => e.id))].sort());
      }),
      { numRuns: 300 },
    );
  });

  it('CA fork plans are one re-chained line with unique ids', () => {
    fc.assert(
      fc.property(sessionArb, ({ ids, values }) => {
        const s = parseSessionText(jsonl([header(), ...values]));
        let n = 0;
        for (const id of ids) {
          const p = planFork(
            s,
            { kind: 'fork', profile: 'ca', entryId: id, position: 'at' },
            { sourcePath: '/p', newSessionId: 'n', now: ts(1), newEntryId: () => `new${n++}` },
          );
          if (!p.ok) {
            expect(p.error.kind).toBe('invalid_session');
            continue;
          }
          const got = p.entries.map((e) => e.id as string);
          expect(new Set(got).size).toBe(got.length);
          p.entries.forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : got[i - 1]));
          expect(p.entries.filter((e) => e.type === 'label').every((e) => String(e.id).startsWith('new'))).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

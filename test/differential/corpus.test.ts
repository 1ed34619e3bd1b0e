/**
 * The corpus itself: it must really contain every shape the differential tests rely on (checked on
 * the file contents, not on the generator's feature tags), and the same seed must give the same
 * files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCorpus, type CorpusFile } from '../fixtures/corpus/build';
import { makeCorpus, type CorpusHandle } from './support';

type Rec = Record<string, any>;

interface Loaded {
  file: CorpusFile;
  header: Rec | null;
  entries: Rec[];
  longestLine: number;
}

let corpus: CorpusHandle;
let loaded: Loaded[];

beforeAll(async () => {
  corpus = await makeCorpus('corpus');
  loaded = corpus.files.map((file) => {
    const lines = readFileSync(file.path, 'utf8').split('\n');
    const values: Rec[] = [];
    for (const line of lines) {
      try {
        const v = JSON.parse(line) as unknown;
        if (v && typeof v === 'object' && !Array.isArray(v)) values.push(v as Rec);
      } catch {
        // damaged line
      }
    }
    const [first, ...rest] = values;
    const header = first?.type === 'session' ? first : null;
    return { file, header, entries: header ? rest : values, longestLine: Math.max(...lines.map((l) => l.length)) };
  });
}, 120_000);

afterAll(() => corpus?.cleanup());

/** Ids on the parent chain above `id` (cycle-safe). */
function ancestors(byId: Map<string, Rec>, id: string): Set<string> {
  const out = new Set<string>();
  let cur = byId.get(id);
  while (cur && typeof cur.parentId === 'string' && !out.has(cur.parentId)) {
    out.add(cur.parentId);
    cur = byId.get(cur.parentId);
  }
  return out;
}

function byIdOf(entries: Rec[]): Map<string, Rec> {
  return new Map(entries.filter((e) => typeof e.id === 'string').map((e) => [e.id as string, e]));
}

const msg = (e: Rec): Rec | undefined => (e.type === 'message' ? (e.message as Rec | undefined) : undefined);
const hasImage = (content: unknown): boolean => Array.isArray(content) && content.some((b: Rec) => b?.type === 'image');
const isWriter = (l: Loaded, ...w: string[]): boolean => w.includes(l.file.writer);

/** Each shape the brief asks for, as a predicate over one file. */
const SHAPES: Array<[string, (l: Loaded) => boolean]> = [
  [
    'H3 compaction with a retained tail',
    (l) => isWriter(l, 'h3') && l.entries.some((e) => e.type === 'compaction' && e.retainedTail?.length > 0),
  ],
  [
    'H3 compaction with retainedTail []',
    (l) =>
      isWriter(l, 'h3') &&
      l.entries.some((e) => e.type === 'compaction' && Array.isArray(e.retainedTail) && e.retainedTail.length === 0),
  ],
  [
    'H3 compaction with firstKeptEntryId only',
    (l) =>
      isWriter(l, 'h3') &&
      l.entries.some((e) => e.type === 'compaction' && e.firstKeptEntryId && !('retainedTail' in e)),
  ],
  [
    'H3 compaction with neither',
    (l) =>
      isWriter(l, 'h3') &&
      l.entries.some((e) => e.type === 'compaction' && !e.firstKeptEntryId && !('retainedTail' in e)),
  ],
  [
    'CA compaction (pi cut point)',
    (l) => isWriter(l, 'ca') && l.entries.some((e) => e.type === 'compaction' && e.firstKeptEntryId !== e.id),
  ],
  [
    'CA compaction keeping nothing (own id)',
    (l) => isWriter(l, 'ca') && l.entries.some((e) => e.type === 'compaction' && e.firstKeptEntryId === e.id),
  ],
  ['CA compaction carrying a systemMessage', (l) => l.entries.some((e) => e.type === 'compaction' && e.systemMessage)],
  [
    'firstKeptEntryId on another branch',
    (l) => {
      const byId = byIdOf(l.entries);
      return l.entries.some(
        (e) =>
          e.type === 'compaction' &&
          byId.has(e.firstKeptEntryId) &&
          e.firstKeptEntryId !== e.id &&
          !ancestors(byId, e.id).has(e.firstKeptEntryId),
      );
    },
  ],
  [
    'older compaction inside a kept range',
    (l) => {
      const byId = byIdOf(l.entries);
      return l.entries.some((c) => {
        if (c.type !== 'compaction' || !c.firstKeptEntryId) return false;
        const up = ancestors(byId, c.id);
        if (!up.has(c.firstKeptEntryId)) return false;
        const aboveKept = ancestors(byId, c.firstKeptEntryId);
        return [...up].some((id) => byId.get(id)?.type === 'compaction' && !aboveKept.has(id));
      });
    },
  ],
  [
    'H3 /tree move without summary',
    (l) => l.entries.some((e, i) => e.type === 'leaf' && l.entries[i + 1]?.type !== 'branch_summary'),
  ],
  [
    'H3 /tree move with summary',
    (l) => l.entries.some((e, i) => e.type === 'leaf' && l.entries[i + 1]?.type === 'branch_summary'),
  ],
  ['H3 moveTo(null)', (l) => isWriter(l, 'h3') && l.entries.some((e) => e.type === 'leaf' && e.targetId === null)],
  ['CA branchWithSummary', (l) => isWriter(l, 'ca') && l.entries.some((e) => e.type === 'branch_summary')],
  [
    'CA resetLeaf then append (second root)',
    (l) => isWriter(l, 'ca') && l.entries.filter((e) => e.parentId === null).length > 1,
  ],
  [
    'CA branch then append (a fork in the tree)',
    (l) => {
      if (!isWriter(l, 'ca')) return false;
      const kids = new Map<string, number>();
      for (const e of l.entries)
        if (typeof e.parentId === 'string') kids.set(e.parentId, (kids.get(e.parentId) ?? 0) + 1);
      return [...kids.values()].some((n) => n > 1);
    },
  ],
  [
    'label set then changed',
    (l) => {
      const seen = new Set<string>();
      return l.entries.some(
        (e) => e.type === 'label' && e.label && (seen.has(e.targetId) || (seen.add(e.targetId), false)),
      );
    },
  ],
  ['label cleared', (l) => l.entries.some((e) => e.type === 'label' && !e.label)],
  [
    'whitespace-only label',
    (l) =>
      l.entries.some((e) => e.type === 'label' && typeof e.label === 'string' && e.label.length > 0 && !e.label.trim()),
  ],
  ['session name', (l) => l.entries.some((e) => e.type === 'session_info' && e.name)],
  ['session name cleared', (l) => l.entries.some((e) => e.type === 'session_info' && !e.name)],
  ['model change', (l) => l.entries.some((e) => e.type === 'model_change')],
  ['thinking level change', (l) => l.entries.some((e) => e.type === 'thinking_level_change')],
  ['active tools change', (l) => l.entries.some((e) => e.type === 'active_tools_change')],
  ['custom entry', (l) => l.entries.some((e) => e.type === 'custom')],
  ['custom_message display true', (l) => l.entries.some((e) => e.type === 'custom_message' && e.display === true)],
  ['custom_message display false', (l) => l.entries.some((e) => e.type === 'custom_message' && e.display === false)],
  ['image in a user message', (l) => l.entries.some((e) => msg(e)?.role === 'user' && hasImage(msg(e)?.content))],
  ['image in a tool result', (l) => l.entries.some((e) => msg(e)?.role === 'toolResult' && hasImage(msg(e)?.content))],
  [
    'assistant thinking block',
    (l) =>
      l.entries.some((e) => msg(e)?.role === 'assistant' && msg(e)?.content?.some?.((b: Rec) => b.type === 'thinking')),
  ],
  [
    'assistant toolCall block',
    (l) =>
      l.entries.some((e) => msg(e)?.role === 'assistant' && msg(e)?.content?.some?.((b: Rec) => b.type === 'toolCall')),
  ],
  ['toolResult with details', (l) => l.entries.some((e) => msg(e)?.role === 'toolResult' && msg(e)?.details)],
  ['bashExecution', (l) => l.entries.some((e) => msg(e)?.role === 'bashExecution' && !msg(e)?.excludeFromContext)],
  [
    'bashExecution excluded from context',
    (l) => l.entries.some((e) => msg(e)?.role === 'bashExecution' && msg(e)?.excludeFromContext === true),
  ],
  [
    'context_edit null',
    (l) => isWriter(l, 'ca') && l.entries.some((e) => e.type === 'context_edit' && e.replacement === null),
  ],
  [
    'context_edit {content}',
    (l) =>
      isWriter(l, 'ca') && l.entries.some((e) => e.type === 'context_edit' && e.replacement?.content !== undefined),
  ],
  ['usage entry', (l) => isWriter(l, 'ca') && l.entries.some((e) => e.type === 'usage')],
  ['system message', (l) => isWriter(l, 'ca') && l.entries.some((e) => msg(e)?.role === 'system')],
  ['line over 1 MiB (H3 writer)', (l) => isWriter(l, 'h3') && l.longestLine > 1024 * 1024],
  ['line over 1 MiB (CA writer)', (l) => isWriter(l, 'ca') && l.longestLine > 1024 * 1024],
  [
    '36-char ids (H3 writer)',
    (l) => isWriter(l, 'h3') && l.entries.some((e) => typeof e.id === 'string' && e.id.length === 36),
  ],
  [
    '36-char ids (CA writer)',
    (l) => isWriter(l, 'ca') && l.entries.some((e) => typeof e.id === 'string' && e.id.length === 36),
  ],
  [
    'fork made by pi (H3)',
    (l) => l.file.writer === 'pi-fork' && l.file.features.includes('h3') && typeof l.header?.parentSession === 'string',
  ],
  [
    'fork made by pi (CA)',
    (l) => l.file.writer === 'pi-fork' && l.file.features.includes('ca') && typeof l.header?.parentSession === 'string',
  ],
  ['clone made by pi', (l) => l.file.features.includes('fork-clone')],
  ['header metadata', (l) => isWriter(l, 'h3') && l.header?.metadata !== undefined],
  ['v1 file', (l) => l.file.format === 1 && l.header !== null && !('version' in l.header)],
  ['v2 file', (l) => l.header?.version === 2],
  ['parentId cycle', (l) => l.file.cyclic],
];

describe('the session corpus', () => {
  it('holds at least 150 sessions from both writers and the hand-written sets', () => {
    expect(corpus.files.length).toBeGreaterThanOrEqual(150);
    const byWriter = new Map<string, number>();
    for (const f of corpus.files) byWriter.set(f.writer, (byWriter.get(f.writer) ?? 0) + 1);
    expect(byWriter.get('h3')).toBeGreaterThanOrEqual(50);
    expect(byWriter.get('ca')).toBeGreaterThanOrEqual(50);
    expect(byWriter.get('pi-fork')).toBeGreaterThanOrEqual(8);
    expect(byWriter.get('legacy')).toBeGreaterThanOrEqual(6);
    expect(byWriter.get('special')).toBeGreaterThanOrEqual(20);
    expect(new Set(corpus.files.map((f) => f.path)).size).toBe(corpus.files.length);
  });

  it.each(SHAPES)('contains: %s', (_name, holds) => {
    expect(loaded.some(holds)).toBe(true);
  });

  it('lays files out as pi does: <root>/<encoded cwd>/<T>_<id>.jsonl', () => {
    for (const f of corpus.files) {
      const rel = relative(join(corpus.root, 'sessions'), f.path).split('/');
      expect(rel).toHaveLength(2);
      expect(rel[0]).toMatch(/^--.*--$/);
      expect(rel[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_.+\.jsonl$/);
    }
  });

  it('is deterministic for a seed', async () => {
    const a = mkdtempSync(join(tmpdir(), 'canopy-det-a-'));
    const b = mkdtempSync(join(tmpdir(), 'canopy-det-b-'));
    try {
      const fa = await buildCorpus(a, { perWriter: 4 });
      const fb = await buildCorpus(b, { perWriter: 4 });
      expect(fb.map((f) => f.name)).toEqual(fa.map((f) => f.name));
      // uuidv7 keeps a module-level clock, so ids pi draws as full UUIDv7 (CA fork session ids,
      // H3's 36-char fallbacks) can differ within one process; compare those files by shape.
      const uuidv7 = /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g;
      fa.forEach((x, i) => {
        const y = fb[i] as CorpusFile;
        const tx = readFileSync(x.path, 'utf8').replaceAll(a, 'ROOT').replace(uuidv7, 'UUIDV7');
        const ty = readFileSync(y.path, 'utf8').replaceAll(b, 'ROOT').replace(uuidv7, 'UUIDV7');
        expect(ty, x.name).toBe(tx);
        expect(relative(b, y.path).replace(uuidv7, 'UUIDV7')).toBe(relative(a, x.path).replace(uuidv7, 'UUIDV7'));
      });
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  }, 60_000);
});

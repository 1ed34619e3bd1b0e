/**
 * The lazily indexed session (envelopes from the prefix scanner, bodies read back on demand) must
 * give exactly what parseSession gives for the same file: for every file of the pi-written corpus
 * (both writers, forks, legacy v1/v2, damaged and odd files), for generated pi-shaped sessions,
 * and for hand-made lines that only almost look like pi's.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectProfile,
  isIndexedEntry,
  readForGraph,
  readSession,
  readSessionDetailed,
  type Issue,
} from '../../electron/core';
import { LiveSession } from '../../electron/repo/live';
import { openIndexed, parseFileEagerly } from '../../electron/repo/session-file';
import { SessionStore } from '../../electron/repo/session-store';
import { entryUsageFact } from '../../electron/core/rules/cost-ledger';
import { previewEntry } from '../../electron/core/rules/entry-preview';
import { writeSessionFile } from '../../bench/generate';
import { buildCorpus, type CorpusFile } from '../fixtures/corpus/build';
import { counterIds, expectSameDerived } from './support';

let root: string;
let corpus: CorpusFile[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'canopy-scale-'));
  corpus = await buildCorpus(join(root, 'sessions'), { perWriter: 24 });
}, 180_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function compareFile(path: string, label: string, verify: 'fast' | 'parse' = 'fast'): Promise<void> {
  const eager = await parseFileEagerly(path, { newId: counterIds() });
  // First on a session whose entry list was never built: the leaf, path and context come from
  // the store's rows and the few entries created on demand.
  const fresh = await openIndexed(path, { verify, newId: counterIds() });
  for (const profile of ['ca', 'h3'] as const) {
    expect(readSessionDetailed(fresh, { profile }), `${label}: fresh ${profile} reading`).toEqual(
      readSessionDetailed(eager, { profile }),
    );
  }
  expect(detectProfile(fresh), label).toBe(detectProfile(eager));
  // The app's open on a fresh index: readSession without the context, reading no message body
  // (so a too_deep message body is reported when it is read, not here).
  const graphFresh = await openIndexed(path, { verify, newId: counterIds() });
  const bodyless = (issues: Issue[]) => issues.filter((i) => i.kind !== 'too_deep');
  for (const profile of ['ca', 'h3'] as const) {
    const { context: _context, ...want } = readSession(eager, { profile });
    expect(readForGraph(eager, { profile }), `${label}: graph reading ${profile}`).toEqual(want);
    const got = readForGraph(graphFresh, { profile });
    expect({ ...got, issues: bodyless(got.issues) }, `${label}: fresh graph reading ${profile}`).toEqual({
      ...want,
      issues: bodyless(want.issues),
    });
  }
  const lazy = await openIndexed(path, { verify, newId: counterIds() });
  expectSameDerived(lazy, eager, label);
}

describe('lazy index = eager parse', () => {
  it('on every corpus file (fast scanner)', async () => {
    expect(corpus.length).toBeGreaterThan(60);
    let indexed = 0;
    for (const file of corpus) {
      await compareFile(file.path, file.name);
      const lazy = await openIndexed(file.path);
      if (lazy.entries.some(isIndexedEntry)) indexed++;
    }
    // Most of the corpus is v3 and must really take the lazy path (not fall back to parseSession).
    expect(indexed).toBeGreaterThan(corpus.length / 2);
  }, 180_000);

  it('graph previews and usage of every corpus file (the skimming pass, apart or during the index pass) equal those of the eager parse', async () => {
    let skimmed = 0;
    for (const file of corpus) {
      const eager = await parseFileEagerly(file.path, { newId: counterIds() });
      if (eager.fatal) continue;
      for (const skimBodies of [false, true]) {
        // store.with: a line the fast index kept but pi drops makes the pass re-index the file.
        const got = await new SessionStore().with(
          file.path,
          async (s, open) => {
            if (s.entries.some(isIndexedEntry)) skimmed++;
            const usageOf = await open.bodies.usageOf(s);
            return { previews: await open.bodies.previews(s), usages: s.entries.map(usageOf) };
          },
          { newId: counterIds(), skimBodies },
        );
        expect(got.previews, `${file.name} skim ${skimBodies}`).toEqual(eager.entries.map((e) => previewEntry(e)));
        expect(got.usages, `${file.name} skim ${skimBodies}`).toEqual(eager.entries.map(entryUsageFact));
      }
    }
    expect(skimmed).toBeGreaterThan(corpus.length / 2);
  }, 180_000);

  it('on every corpus file (verify: parse)', async () => {
    for (const file of corpus) await compareFile(file.path, `${file.name} (parse)`, 'parse');
  }, 180_000);

  it('on generated pi-shaped sessions, with most lines taken by the scanner', async () => {
    for (const seed of [1, 2, 3]) {
      const path = join(root, `gen-${seed}.jsonl`);
      writeSessionFile(path, { targetBytes: 600_000, seed, scale: 0.3 });
      await compareFile(path, `generated seed ${seed}`);
      const live = await LiveSession.open(path);
      // compactions (always parsed) are rare; everything else has pi's shape
      expect(live.stats.scanned).toBeGreaterThan(live.stats.parsed * 20);
      live.close();
    }
  }, 120_000);

  it('reads the leaf and the context of a big session creating only the entries it shows', async () => {
    const path = join(root, 'gen-rows.jsonl');
    writeSessionFile(path, { targetBytes: 2_000_000, seed: 7, scale: 0.3 });
    const live = await LiveSession.open(path);
    const all = live.session.entries;
    const fresh = await LiveSession.open(path);
    const reading = readSessionDetailed(fresh.session);
    const created = fresh.stats.entryObjects;
    expect(all.length).toBeGreaterThan(1000);
    // Created: the context's entries, the entries of the rarer types (the type index lists them),
    // the leaf and the two setters; never the rest of the path or of the file.
    const rarer = all.filter((e) => e.type !== 'message').length;
    expect(created).toBeLessThanOrEqual(reading.contextEntryIds.length + rarer + 3);
    expect(created).toBeLessThan(reading.pathIds.length / 2);
    expect(reading).toEqual(readSessionDetailed(live.session));
    live.close();
    fresh.close();
  });

  it('on lines that only almost have pi shape, CRLF, blank lines and a torn tail', async () => {
    const h = JSON.stringify({
      type: 'session',
      version: 3,
      id: 's',
      timestamp: '2026-01-01T00:00:00.000Z',
      cwd: '/p',
    });
    const env = (id: string, parentId: string | null, extra = ''): string =>
      `{"type":"message","id":"${id}","parentId":${parentId === null ? 'null' : `"${parentId}"`},"timestamp":"2026-01-01T00:00:0${id.length % 9}.000Z"${extra}}`;
    const lines = [
      h,
      env('a', null, ',"message":{"role":"user","content":"hi","timestamp":1}'),
      '',
      '   ',
      // role not first, escaped id, whitespace after the colon, unicode id
      '{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"content":"x","role":"assistant","provider":"p","model":"m"}}',
      '{"type":"message","id":"c\\u0041","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"y"}}',
      '{"type": "message","id":"d","parentId":"cA","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"z"}}',
      '{"type":"message","id":"é","parentId":"d","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"assistant","content":[],"provider":"p","model":"m"}}\r',
      // message null / not an object, missing parent key, numeric parent
      '{"type":"message","id":"f","parentId":"é","timestamp":"2026-01-01T00:00:05.000Z","message":null}',
      '{"type":"message","id":"g","parentId":"f","timestamp":"2026-01-01T00:00:06.000Z","message":"text"}',
      '{"type":"message","id":"h","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"user"}}',
      '{"type":"message","id":"i","parentId":7,"timestamp":"2026-01-01T00:00:08.000Z","message":{"role":"user"}}',
      // leaf / label / context_edit with odd targets, custom in CA's key order, a second header
      '{"type":"leaf","id":"j","parentId":"f","timestamp":"2026-01-01T00:00:09.000Z","targetId":"a"}',
      '{"type":"leaf","id":"k","parentId":"j","timestamp":"2026-01-01T00:00:09.000Z","targetId":5}',
      '{"type":"label","id":"l","parentId":"j","timestamp":"2026-01-01T00:00:09.000Z","targetId":"a","label":" x "}',
      '{"type":"label","id":"m","parentId":"l","timestamp":"2026-01-01T00:00:09.000Z","label":"no target"}',
      '{"type":"context_edit","id":"n","parentId":"m","timestamp":"2026-01-01T00:00:09.000Z","targetId":null,"replacement":null}',
      '{"type":"custom","customType":"x","data":{"id":"zzz","parentId":null,"timestamp":"t"},"id":"o","parentId":"n","timestamp":"2026-01-01T00:00:10.000Z"}',
      '{"type":"custom_message","customType":"x","content":"c","display":true,"id":"p","parentId":"o","timestamp":"2026-01-01T00:00:11.000Z"}',
      h,
      // duplicate id, compaction with a retainedTail, empty parent
      env('a', 'p', ',"message":{"role":"user","content":"again","timestamp":2}'),
      '{"type":"compaction","id":"q","parentId":"a","timestamp":"2026-01-01T00:00:12.000Z","summary":"s","firstKeptEntryId":"p","tokensBefore":1,"retainedTail":[]}',
      env('r', '', ',"message":{"role":"user","content":"root again","timestamp":3}'),
      'garbage {"type":"message"}',
      '[1,2]',
      '0',
      env('s', 'r', ',"message":{"role":"assistant","content":[],"provider":"p","model":"m"}'),
    ];
    const path = join(root, 'odd.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n${env('t', 's', ',"message":{"role":"user","con')}`);
    await compareFile(path, 'odd lines');
    await compareFile(path, 'odd lines (parse)', 'parse');
  });
});

describe('bodies that do not match their index', () => {
  it('a torn line in the middle that ends in braces is caught on first read and the file is re-indexed', async () => {
    const path = join(root, 'torn-middle.jsonl');
    const full =
      '{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[],"usage":{"cost":{"total":1}},"stopReason":"stop"}}';
    const torn = full.slice(0, full.indexOf('}}') + 2); // ends in "}}" like a complete message line
    const lines = [
      '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}',
      '{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.500Z","message":{"role":"user","content":"q"}}',
      torn,
      '{"type":"message","id":"c","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"r"}}',
    ];
    writeFileSync(path, `${lines.join('\n')}\n`);
    const eager = await parseFileEagerly(path);
    expect(eager.entries.map((e) => e.id)).toEqual(['a', 'c']);
    // The scanner cannot tell this line from a complete one without parsing it ...
    const fast = await openIndexed(path);
    expect(fast.entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(() => fast.entries[1]!.raw).toThrow(/not valid JSON/);
    // ... and the store recovers: the body error re-indexes with every line parsed.
    const ids = await new SessionStore().with(path, (s) => {
      for (const e of s.entries) void e.raw;
      return s.entries.map((e) => e.id);
    });
    expect(ids).toEqual(['a', 'c']);
  });

  it('a duplicate envelope key later in the line is caught the same way', async () => {
    const path = join(root, 'dup-key.jsonl');
    writeFileSync(
      path,
      [
        '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}',
        '{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.500Z","message":{"role":"user","content":"q"},"id":"z"}',
        '',
      ].join('\n'),
    );
    const eager = await parseFileEagerly(path);
    const ids = await new SessionStore().with(path, (s) => s.entries.map((e) => [e.id, (e.raw as { id: string }).id]));
    expect(ids).toEqual(eager.entries.map((e) => [e.id, e.id]));
    expect(ids).toEqual([['z', 'z']]);
  });

  it('a file rewritten in place (same inode) is noticed when a body is read', async () => {
    const path = join(root, 'rewritten.jsonl');
    const h = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}';
    const m = (id: string, text: string): string =>
      `{"type":"message","id":"${id}","parentId":null,"timestamp":"2026-01-01T00:00:00.500Z","message":{"role":"user","content":"${text}"}}`;
    writeFileSync(path, `${h}\n${m('a', 'first')}\n`);
    const s = await openIndexed(path);
    writeFileSync(path, `${h}\n${m('b', 'other')}\n`);
    expect(() => s.entries[0]!.raw).toThrow(/no longer holds entry a/);
    appendFileSync(path, '');
  });
});

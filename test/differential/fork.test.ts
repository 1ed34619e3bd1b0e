/**
 * Differential test: Canopy's planFork against pi's own fork and clone.
 * - CA: SessionManager.open(copy).createBranchedSession(target), driven the way pi's runtime
 *   drives /fork, fork "at" and /clone (agent-session-runtime.js, interactive-mode.js).
 * - H3: JsonlSessionRepo.fork(meta, {cwd, entryId, position}); the new file is read back.
 * Compared: refusals (kind), header (all but fresh id/timestamp; H3 gets our id), every entry
 * (ids of re-created labels compared structurally), and the new leaf.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseSessionText,
  planFork,
  type ForkEnv,
  type ForkRequest,
  type ParsedSession,
  type Profile,
} from '../../electron/core';
import type { CorpusFile } from '../fixtures/corpus/build';
import { piFork, type EntryRef, type PiForkRequest, type PiForkResult } from '../oracle/pi-oracle';
import { fileRng, freshIdNamer, hasParentCycle, makeCorpus, mapEntryIds, Report, type CorpusHandle } from './support';

const NEW_SESSION_ID = '019c0000-0000-7000-8000-00000000f0f0';
const NOW = '2026-03-01T12:00:00.000Z';
const UNKNOWN_ID = 'zzzzzzzz';

let corpus: CorpusHandle;

beforeAll(async () => {
  corpus = await makeCorpus('fork');
}, 120_000);

afterAll(() => corpus?.cleanup());

function forkEnv(sourcePath: string): ForkEnv {
  let n = 0;
  return {
    sourcePath,
    newSessionId: NEW_SESSION_ID,
    now: NOW,
    newEntryId: () => (0xf0000000 + n++).toString(16),
  };
}

interface RawInfo {
  type: unknown;
  role: unknown;
}

/** Entry types/roles straight from the file (independent of Canopy's parser). */
function rawInfo(text: string): Map<string, RawInfo> {
  const out = new Map<string, RawInfo>();
  for (const line of text.split('\n').slice(1)) {
    try {
      const o = JSON.parse(line) as Record<string, any>;
      if (o && typeof o.id === 'string') out.set(o.id, { type: o.type, role: o.message?.role });
    } catch {
      // not an entry
    }
  }
  return out;
}

/** The requests to try on one file: a deterministic sample of entries in both positions, clones, refusals. */
function requestsFor(
  file: CorpusFile,
  profile: Profile,
  allIds: string[],
  info: Map<string, RawInfo>,
  v1: boolean,
): PiForkRequest[] {
  const rng = fileRng(file.name, `fork-${profile}`);
  // Only string ids can be asked for (CA keeps bogus lines such as `42` as entries without an id).
  const piIds = allIds.filter((id) => typeof id === 'string');
  const ref = (id: string): EntryRef => (v1 ? { index: allIds.indexOf(id) } : { id });
  const byType = (pred: (i: RawInfo) => boolean): string[] =>
    piIds.filter((id) => {
      const i = info.get(id);
      return i !== undefined && pred(i);
    });
  const users = v1 ? [] : byType((i) => i.type === 'message' && i.role === 'user');
  // The first entry and first prompt (forks that start empty sessions), one later prompt, one
  // label/compaction/leaf entry (re-chaining, checkpoints) and one entry of any kind.
  const targets = new Set<string>();
  if (piIds[0] !== undefined) targets.add(piIds[0]);
  if (users[0] !== undefined) targets.add(users[0]);
  for (const id of rng.sample(users.slice(1), 1)) targets.add(id);
  for (const id of rng.sample(
    byType((i) => i.type === 'label' || i.type === 'compaction' || i.type === 'leaf'),
    1,
  ))
    targets.add(id);
  for (const id of rng.sample(piIds, v1 ? 3 : 1)) targets.add(id);

  const reqs: PiForkRequest[] = [];
  for (const id of targets) {
    reqs.push({ kind: 'fork', entry: ref(id), position: 'before' });
    reqs.push({ kind: 'fork', entry: ref(id), position: 'at' });
  }
  reqs.push({ kind: 'clone' });
  if (piIds.length > 0) reqs.push({ kind: 'clone', leaf: ref(rng.pick(piIds)) });
  if (profile === 'ca') reqs.push({ kind: 'clone', leaf: null });
  if (!v1) reqs.push({ kind: 'fork', entry: { id: UNKNOWN_ID }, position: rng.pick(['at', 'before'] as const) });
  return reqs;
}

function describeReq(req: PiForkRequest): string {
  const show = (r: EntryRef | null | undefined): string =>
    r === undefined ? 'current leaf' : r === null ? 'null' : 'id' in r ? r.id : `#${r.index}`;
  return req.kind === 'fork' ? `fork ${req.position} ${show(req.entry)}` : `clone ${show(req.leaf)}`;
}

/** Translates pi's request into Canopy's, mapping v1 ids by position. */
function canopyRequest(req: PiForkRequest, profile: Profile, parsed: ParsedSession): ForkRequest {
  const resolve = (r: EntryRef): string => {
    if ('id' in r) return r.id;
    const id = parsed.entries[r.index]?.id;
    if (id === undefined) throw new Error(`no Canopy entry at index ${r.index}`);
    return id;
  };
  if (req.kind === 'fork') return { kind: 'fork', profile, entryId: resolve(req.entry), position: req.position };
  return {
    kind: 'clone',
    profile,
    leafId: req.leaf === undefined ? undefined : req.leaf === null ? null : resolve(req.leaf),
  };
}

function compareFork(
  report: Report,
  file: CorpusFile,
  profile: Profile,
  req: PiForkRequest,
  parsed: ParsedSession,
  pi: PiForkResult,
  sourceCwd: unknown,
): void {
  const what = describeReq(req);
  const plan = planFork(parsed, canopyRequest(req, profile, parsed), forkEnv(pi.sourcePath));
  if (!pi.ok) {
    report.count(`${profile}: refusals compared`);
    if (plan.ok)
      report.mismatch(
        file.name,
        profile,
        what,
        `pi refuses (${pi.error.kind}: ${pi.error.message}); Canopy plans a fork`,
      );
    else report.check(file.name, profile, `${what} refusal kind`, pi.error.kind, plan.error.kind);
    return;
  }
  if (!plan.ok) {
    report.mismatch(
      file.name,
      profile,
      what,
      `pi forks (${pi.entries.length} entries); Canopy refuses: ${plan.error.kind}: ${plan.error.message}`,
    );
    return;
  }
  report.count(`${profile}: forks compared`);

  // Header: fresh id and time are ours (H3 was given our id); cwd only when the source has one
  // (CA falls back to the process cwd).
  const piHeader = { ...pi.header };
  const cHeader: Record<string, unknown> = { ...plan.header };
  if (cHeader.id !== NEW_SESSION_ID)
    report.mismatch(
      file.name,
      profile,
      `${what} header.id`,
      `Canopy header id ${String(cHeader.id)} is not env.newSessionId`,
    );
  if (cHeader.timestamp !== NOW)
    report.mismatch(
      file.name,
      profile,
      `${what} header.timestamp`,
      `Canopy header timestamp ${String(cHeader.timestamp)} is not env.now`,
    );
  delete piHeader.timestamp;
  delete cHeader.timestamp;
  if (profile === 'ca') {
    delete piHeader.id;
    delete cHeader.id;
  }
  if (typeof sourceCwd !== 'string') {
    delete piHeader.cwd;
    delete cHeader.cwd;
  }
  report.check(file.name, profile, `${what} header`, piHeader, cHeader);

  // Entries: v1 ids mapped by position (pi re-migrates on every open), fresh ids by order.
  const piSource = new Set(pi.sourceEntryIds);
  let cEntries = plan.entries;
  let cLeaf = plan.leafId;
  if (parsed.format === 1) {
    const toPi = new Map(parsed.entries.map((e, i) => [e.id, pi.sourceEntryIds[i] ?? e.id]));
    cEntries = mapEntryIds(cEntries, (id) => toPi.get(id) ?? id);
    if (cLeaf) cLeaf = toPi.get(cLeaf) ?? cLeaf;
  }
  const piNames = freshIdNamer(piSource);
  const cNames = freshIdNamer(piSource);
  const piMapped = mapEntryIds(pi.entries, piNames);
  const cMapped = mapEntryIds(cEntries, cNames);
  report.check(file.name, profile, `${what} entries`, piMapped, cMapped);
  if (pi.leafError === undefined) {
    report.check(
      file.name,
      profile,
      `${what} leafId`,
      pi.leafId === null ? null : piNames(pi.leafId),
      cLeaf === null ? null : cNames(cLeaf),
    );
  }
}

/** H3 SessionError codes thrown while opening the source (Canopy's closest kind: invalid_session). */
const OPEN_FAILURES = new Set(['invalid_session', 'invalid_entry']);

/** pi cannot even open the source, so it forks nothing: Canopy must refuse too. */
function unopenable(
  report: Report,
  file: CorpusFile,
  profile: Profile,
  parsed: ParsedSession,
  piMessage: string,
): void {
  report.count(`${profile}: files pi cannot open (refusal compared)`);
  const plan = planFork(parsed, { kind: 'clone', profile }, forkEnv(file.path));
  if (plan.ok)
    report.mismatch(
      file.name,
      profile,
      'clone of a file pi cannot open',
      `pi: ${piMessage}; Canopy plans a fork of ${plan.entries.length} entries`,
    );
  else
    report.check(
      file.name,
      profile,
      'clone of a file pi cannot open: refusal kind',
      'invalid_session',
      plan.error.kind,
    );
}

async function runProfile(profile: Profile): Promise<Report> {
  const report = new Report();
  for (const file of corpus.files) {
    const started = performance.now();
    if (file.cyclic) {
      report.skip('parentId cycle: pi never returns, covered by the core damage tests', file.name);
      continue;
    }
    const bytes = readFileSync(file.path);
    if (profile === 'ca' && bytes.length === 0) {
      report.skip('empty file: pi CA initialises it instead of reading it', file.name);
      continue;
    }
    const text = bytes.toString('utf8');
    if (hasParentCycle(text)) {
      report.mismatch(file.name, profile, 'corpus', 'file has a parentId cycle but is not flagged cyclic');
      continue;
    }
    const parsed = parseSessionText(text);
    const opts = { scratchDir: corpus.scratch, newSessionId: NEW_SESSION_ID };
    let first: PiForkResult;
    try {
      first = await piFork(file.path, profile, { kind: 'clone' }, opts);
    } catch (error) {
      // CA: SessionManager.open throws ("not a valid pi session"): there is nothing to fork from.
      unopenable(report, file, profile, parsed, (error as Error).message);
      continue;
    }
    if (!first.ok && OPEN_FAILURES.has(first.error.kind) && first.sourceEntryIds.length === 0) {
      unopenable(report, file, profile, parsed, first.error.message);
      continue;
    }
    const v1 = parsed.format === 1;
    if (v1 && first.sourceEntryIds.length !== parsed.entries.length) {
      report.mismatch(
        file.name,
        profile,
        'entries',
        `v1 entry count differs: pi=${first.sourceEntryIds.length} canopy=${parsed.entries.length}`,
      );
      continue;
    }
    const sourceCwd = parsed.header?.cwd;
    compareFork(report, file, profile, { kind: 'clone' }, parsed, first, sourceCwd);
    const info = rawInfo(text);
    let requests = requestsFor(file, profile, first.sourceEntryIds, info, v1).filter(
      (r) => !(r.kind === 'clone' && r.leaf === undefined),
    );
    // Big files (huge lines, deep chains) cost a full parse per pi fork: sample fewer requests.
    if (bytes.length > 512 * 1024 || first.sourceEntryIds.length > 1000) requests = requests.slice(0, 4);
    for (const req of requests) {
      const pi = await piFork(file.path, profile, req, {
        ...opts,
        listSourceIds: profile === 'h3' ? false : undefined,
      });
      if (profile === 'h3') pi.sourceEntryIds = first.sourceEntryIds;
      compareFork(report, file, profile, req, parsed, pi, sourceCwd);
    }
    report.count(`${profile}: files`);
    report.time(file.name, performance.now() - started);
  }
  return report;
}

describe('differential: fork and clone (Canopy planFork vs pi)', () => {
  for (const profile of ['ca', 'h3'] as const) {
    it(`${profile}: fork plans and refusals match pi`, async () => {
      const report = await runProfile(profile);
      console.log(report.summary(`differential fork, profile ${profile}`));
      if (report.mismatches.length > 0)
        expect.fail(`${report.mismatches.length} mismatches with pi:\n${report.failureText()}`);
    });
  }
});

/**
 * Differential test: Canopy's reader against pi's own code, for every corpus file and each
 * profile whose pi reader accepts the file (CA reads nearly everything; H3 rejects non-v3 and
 * strictly invalid files). Compares leafId, pathIds, contextEntryIds, context (deep, after a JSON
 * round trip), labels and sessionName for the current leaf and for sampled hypothetical leaves.
 * Where pi refuses a file, Canopy must report the problem (fatal, or an issue on the same line).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseSessionText,
  readForGraph,
  readSession,
  type ParsedSession,
  type Profile,
  type SessionReading,
} from '../../electron/core';
import type { CorpusFile } from '../fixtures/corpus/build';
import { piRead, type PiReadResult } from '../oracle/pi-oracle';
import { fileRng, hasParentCycle, makeCorpus, physicalLineOfNonBlank, Report, type CorpusHandle } from './support';

let corpus: CorpusHandle;

beforeAll(async () => {
  corpus = await makeCorpus('reading');
}, 120_000);

afterAll(() => corpus?.cleanup());

/** Canopy id ↔ pi id. Identity except for v1 files, whose ids both readers generate at random. */
interface IdMap {
  toPi(id: string): string;
  toCanopy(id: string): string;
}

const IDENTITY: IdMap = { toPi: (id) => id, toCanopy: (id) => id };

function idMapFor(parsed: ParsedSession, piEntryIds: string[] | undefined): IdMap | string {
  if (parsed.format !== 1) return IDENTITY;
  if (!piEntryIds || piEntryIds.length !== parsed.entries.length) {
    return `v1 entry count differs: pi=${piEntryIds?.length} canopy=${parsed.entries.length}`;
  }
  const toPi = new Map<string, string>();
  const toCanopy = new Map<string, string>();
  parsed.entries.forEach((e, i) => {
    const p = piEntryIds[i] as string;
    toPi.set(e.id, p);
    toCanopy.set(p, e.id);
  });
  return { toPi: (id) => toPi.get(id) ?? id, toCanopy: (id) => toCanopy.get(id) ?? id };
}

function pickLeaves(file: CorpusFile, allIds: string[]): Array<string | null> {
  const rng = fileRng(file.name, 'leaves');
  // CA keeps bogus lines (`42`) as entries without an id; only real ids can be leaves.
  const entryIds = allIds.filter((id) => typeof id === 'string');
  const picks: Array<string | null> = [null];
  if (entryIds.length > 0) picks.push(entryIds[0] as string, entryIds[entryIds.length - 1] as string);
  picks.push(...rng.sample(entryIds, 4));
  return [...new Set(picks)];
}

/** Issue kinds with which Canopy reports what makes H3 fail after loading. */
const LEAF_FAILURE_KINDS = new Set(['missing_leaf_target', 'unknown_leaf']);
const PATH_FAILURE_KINDS = new Set(['dangling_parent', 'missing_leaf_target', 'unknown_leaf']);

function compareReading(
  report: Report,
  file: CorpusFile,
  profile: Profile,
  parsed: ParsedSession,
  pi: Extract<PiReadResult, { ok: true }>,
  ids: IdMap,
): void {
  const c: SessionReading = readSession(parsed, { profile });
  const name = file.name;
  report.check(name, profile, 'leafId', pi.reading.leafId, c.leafId === null ? null : ids.toPi(c.leafId));
  report.check(name, profile, 'pathIds', pi.reading.pathIds, c.pathIds.map(ids.toPi));
  report.check(name, profile, 'contextEntryIds', pi.reading.contextEntryIds, c.contextEntryIds.map(ids.toPi));
  report.check(name, profile, 'context', pi.reading.context, c.context);
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.labels)) labels[ids.toPi(k)] = v;
  report.check(name, profile, 'labels', pi.reading.labels, labels);
  report.check(name, profile, 'sessionName', pi.reading.sessionName ?? null, c.sessionName ?? null);
  // The app's open (no context messages built) against pi too, and equal to readSession's issues.
  const g = readForGraph(parsed, { profile });
  report.check(name, profile, 'graph leafId', pi.reading.leafId, g.leafId === null ? null : ids.toPi(g.leafId));
  report.check(name, profile, 'graph pathIds', pi.reading.pathIds, g.pathIds.map(ids.toPi));
  report.check(name, profile, 'graph contextEntryIds', pi.reading.contextEntryIds, g.contextEntryIds.map(ids.toPi));
  report.check(name, profile, 'graph labels', c.labels, g.labels);
  report.check(name, profile, 'graph sessionName', c.sessionName ?? null, g.sessionName ?? null);
  report.check(name, profile, 'graph issues', c.issues, g.issues);
  report.count(`${profile}: files compared`);

  for (const { leafId, result } of pi.leaves) {
    const hc = readSession(parsed, { profile, leafId: leafId === null ? null : ids.toCanopy(leafId) });
    const what = `hypothetical leaf ${leafId}`;
    if (!result.ok) {
      // pi cannot walk from this leaf (H3: a missing parent on the way); Canopy must say why.
      if (!hc.issues.some((i) => PATH_FAILURE_KINDS.has(i.kind))) {
        report.mismatch(name, profile, what, `pi fails (${result.error.message}) but Canopy reports no path issue`);
      }
      report.count(`${profile}: hypothetical leaves where pi fails (issue checked)`);
      continue;
    }
    report.check(name, profile, `${what} pathIds`, result.pathIds, hc.pathIds.map(ids.toPi));
    report.check(name, profile, `${what} contextEntryIds`, result.contextEntryIds, hc.contextEntryIds.map(ids.toPi));
    const hg = readForGraph(parsed, { profile, leafId: leafId === null ? null : ids.toCanopy(leafId) });
    report.check(
      name,
      profile,
      `${what} graph contextEntryIds`,
      result.contextEntryIds,
      hg.contextEntryIds.map(ids.toPi),
    );
    report.check(name, profile, `${what} context`, result.context, hc.context);
    report.count(`${profile}: hypothetical leaves compared`);
  }
}

const HEADER_ISSUES = new Set(['invalid_header', 'unsupported_version', 'byte_order_mark']);

/** pi refuses to open the file: Canopy must not read it silently. */
function compareRefusal(
  report: Report,
  file: CorpusFile,
  profile: Profile,
  text: string,
  parsed: ParsedSession,
  message: string,
  code: string,
): void {
  const name = file.name;
  report.count(`${profile}: files pi refuses (${code})`);
  if (parsed.fatal) return;
  if (profile === 'ca') {
    // Canopy may still show such a file (e.g. after a BOM) but must flag the header problem.
    if (!parsed.issues.some((i) => i.line <= 1 && HEADER_ISSUES.has(i.kind))) {
      report.mismatch(
        name,
        profile,
        'refusal',
        `pi refuses (${message}) but Canopy parses it without a fatal error or header issue`,
      );
    }
    return;
  }
  if (code === 'invalid_entry') {
    const n = Number(/ line (\d+) /.exec(message)?.[1]);
    const line = physicalLineOfNonBlank(text, n);
    if (!parsed.issues.some((i) => i.line === line)) {
      report.mismatch(
        name,
        profile,
        'refusal',
        `pi: ${message}; Canopy has no issue on physical line ${line} (issues: ${JSON.stringify(parsed.issues.map((i) => [i.line, i.kind]))})`,
      );
    }
    return;
  }
  // invalid_session: a header H3 does not accept. v1/v2 files are fine for Canopy (CA migrates them).
  if (parsed.format === 1 || parsed.format === 2) return;
  if (!parsed.issues.some((i) => i.line <= 1 || HEADER_ISSUES.has(i.kind))) {
    report.mismatch(name, profile, 'refusal', `pi: ${message}; Canopy reports no header issue`);
  }
}

async function runProfile(profile: Profile): Promise<Report> {
  const report = new Report();
  for (const file of corpus.files) {
    if (file.cyclic) {
      report.skip('parentId cycle: pi never returns, covered by the core damage tests', file.name);
      continue;
    }
    if (profile === 'ca' && file.features.includes('empty') && readFileSync(file.path).length === 0) {
      report.skip('empty file: pi CA initialises it with a fresh header (a write), nothing to read', file.name);
      continue;
    }
    const text = readFileSync(file.path, 'utf8');
    if (hasParentCycle(text)) {
      report.mismatch(file.name, profile, 'corpus', 'file has a parentId cycle but is not flagged cyclic');
      continue;
    }
    const parsed = parseSessionText(text);
    const pi = await piRead(file.path, profile, {
      scratchDir: corpus.scratch,
      pickLeaves: (entryIds) => pickLeaves(file, entryIds),
    });
    if (!pi.ok) {
      if (pi.stage === 'open') {
        compareRefusal(report, file, profile, text, parsed, pi.error.message, pi.error.code);
      } else {
        const c = readSession(parsed, { profile });
        const kinds = pi.stage === 'leaf' ? LEAF_FAILURE_KINDS : PATH_FAILURE_KINDS;
        if (!c.issues.some((i) => kinds.has(i.kind))) {
          report.mismatch(
            file.name,
            profile,
            `pi ${pi.stage} failure`,
            `pi: ${pi.error.message}; Canopy issues: ${JSON.stringify(c.issues.map((i) => i.kind))}`,
          );
        }
        report.count(`${profile}: files pi loads but cannot walk (${pi.stage}; issue checked)`);
      }
      continue;
    }
    if (parsed.fatal) {
      report.mismatch(file.name, profile, 'fatal', `pi reads the file, Canopy refuses it: ${parsed.fatal.message}`);
      continue;
    }
    const ids = idMapFor(parsed, pi.entryIds);
    if (typeof ids === 'string') {
      report.mismatch(file.name, profile, 'entries', ids);
      continue;
    }
    if (ids !== IDENTITY) report.count(`${profile}: v1 files compared by position`);
    compareReading(report, file, profile, parsed, pi, ids);
  }
  return report;
}

describe('differential: reading (Canopy core vs pi)', () => {
  for (const profile of ['ca', 'h3'] as const) {
    it(`${profile}: leaf, path, context, labels and name match pi (current and hypothetical leaves)`, async () => {
      const report = await runProfile(profile);
      console.log(report.summary(`differential reading, profile ${profile}`));
      if (report.mismatches.length > 0)
        expect.fail(`${report.mismatches.length} mismatches with pi:\n${report.failureText()}`);
    });
  }
});

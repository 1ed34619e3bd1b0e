/**
 * The comparison behind the scale tests: everything the core derives from a session (envelopes,
 * bodies, issues, readings under both profiles and several leaves, tree, labels, fork plans) must
 * be the same for an eagerly parsed file and for the lazily indexed one.
 */
import { expect } from 'vitest';
import {
  buildTree,
  computeLabels,
  detectProfile,
  listTreeEntries,
  planFork,
  readPath,
  readSessionDetailed,
  sessionName,
  type ParsedSession,
  type Profile,
} from '../../electron/core';

/** Deterministic ids for v1 files (both readers must generate the same ones). */
export function counterIds(): () => string {
  let n = 0;
  return () => `v1id${(n++).toString(16).padStart(4, '0')}`;
}

function envelopes(s: ParsedSession): unknown[] {
  return s.entries.map((e) => ({
    id: e.id,
    parentId: e.parentId,
    type: e.type,
    timestamp: e.timestamp,
    line: e.line,
    role: e.role,
    targetId: e.targetId,
  }));
}

function leavesOf(s: ParsedSession): Array<string | null | undefined> {
  const ids = s.entries.map((e) => e.id).filter((id) => typeof id === 'string');
  const picks: Array<string | null | undefined> = [undefined, null, 'no-such-entry'];
  const step = Math.max(1, Math.floor(ids.length / 5));
  for (let i = 0; i < ids.length; i += step) picks.push(ids[i]);
  if (ids.length > 0) picks.push(ids[ids.length - 1]);
  return picks;
}

/** Everything derived from `s`, as plain values (Maps turned into entry lists). */
export function derive(s: ParsedSession): Record<string, unknown> {
  const out: Record<string, unknown> = {
    header: s.header,
    format: s.format,
    migrated: s.migrated,
    fatal: s.fatal,
    issues: s.issues,
    envelopes: envelopes(s),
    bodies: s.entries.map((e) => e.raw),
    detected: detectProfile(s),
    tree: listTreeEntries(s),
    name: sessionName(s),
  };
  if (s.fatal) return out;
  const t = buildTree(s);
  out.builtTree = { roots: t.roots, children: [...t.children], issues: t.issues };
  for (const profile of ['ca', 'h3'] as Profile[]) {
    const labels = computeLabels(s, profile);
    out[`labels-${profile}`] = {
      labels: [...labels.labels],
      timestamps: [...labels.timestamps],
      malformed: labels.malformed.map((e) => e.id),
    };
    for (const leafId of leavesOf(s)) {
      const opts = leafId === undefined ? { profile } : { profile, leafId };
      const reading = readSessionDetailed(s, opts);
      out[`read-${profile}-${String(leafId)}`] = reading;
      // readPath is the first half of readSessionDetailed: the same leaf, path and walk issues.
      const p = readPath(s, opts);
      expect(p.leafId).toBe(reading.leafId);
      expect(p.path.entries.map((e) => e.id)).toEqual(reading.pathIds);
      // The lazy views of the same walk: ids from the id table, entries and types by position.
      expect(p.pathIds()).toEqual(reading.pathIds);
      expect(p.path.length).toBe(reading.pathIds.length);
      for (let k = 0; k < p.path.length; k++) {
        expect(p.path.entryAt(k)).toBe(p.path.entries[k]);
        expect(p.path.typeAt(k)).toBe(p.path.entries[k]!.type);
      }
    }
    const env = (): { sourcePath: string; newSessionId: string; now: string; newEntryId: () => string } => {
      let n = 0;
      return {
        sourcePath: '/src.jsonl',
        newSessionId: 'new-session',
        now: '2026-02-01T00:00:00.000Z',
        newEntryId: () => `fork${n++}`,
      };
    };
    out[`clone-${profile}`] = planFork(s, { kind: 'clone', profile }, env());
    const ids = s.entries.map((e) => e.id);
    for (const entryId of [ids[0], ids[Math.floor(ids.length / 2)], ids[ids.length - 1]]) {
      if (typeof entryId !== 'string') continue;
      for (const position of ['before', 'at'] as const) {
        out[`fork-${profile}-${entryId}-${position}`] = planFork(
          s,
          { kind: 'fork', profile, entryId, position },
          env(),
        );
      }
    }
  }
  return out;
}

/** Asserts equality key by key, so a failure names what differs. */
export function expectSameDerived(lazy: ParsedSession, eager: ParsedSession, label: string): void {
  const a = derive(lazy);
  const b = derive(eager);
  expect(Object.keys(a), label).toEqual(Object.keys(b));
  for (const key of Object.keys(b)) expect(a[key], `${label}: ${key}`).toEqual(b[key]);
}

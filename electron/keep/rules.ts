/**
 * The keep wing's pure rules: what a record may hold, how a change applies, which files a
 * trashing takes (a session and its forks).
 */
import type { KeepPatchDto, KeepRecordDto } from '../shared/keep-dto';

export const MAX_NAME = 200;
export const MAX_TAG = 40;
export const MAX_TAGS = 20;
export const MAX_NOTE = 4000;

/** A tag as kept: trimmed, inner spaces as dashes, no leading '#', lower case. */
export function normalTag(tag: string): string {
  return tag.trim().replace(/^#+/, '').replace(/\s+/g, '-').toLowerCase().slice(0, MAX_TAG);
}

/**
 * `record` with `patch` applied at `now`: a field given replaces it, null or empty clears it;
 * null when nothing is left to keep (the record is dropped).
 */
export function applyPatch(record: KeepRecordDto | undefined, patch: KeepPatchDto, now: string): KeepRecordDto | null {
  const next: KeepRecordDto = { ...record, updatedAt: now };
  if (patch.name !== undefined) {
    const name = patch.name?.trim().slice(0, MAX_NAME) ?? '';
    if (name) next.name = name;
    else delete next.name;
  }
  if (patch.tags !== undefined) {
    const tags = [...new Set(patch.tags.map(normalTag).filter(Boolean))].slice(0, MAX_TAGS).sort();
    if (tags.length > 0) next.tags = tags;
    else delete next.tags;
  }
  if (patch.pinned !== undefined) {
    if (patch.pinned) next.pinned = true;
    else delete next.pinned;
  }
  if (patch.note !== undefined) {
    const note = patch.note?.trim().slice(0, MAX_NOTE) ?? '';
    if (note) next.note = note;
    else delete next.note;
  }
  return next.name || next.tags || next.pinned || next.note ? next : null;
}

/**
 * A session and, with `withForks`, every session forked from it (forks of forks too), by
 * `parentSessionId`: the session first, then its family breadth-first. A cycle is cut.
 */
export function familyOf<R extends { sessionId: string; parentSessionId: string | null }>(
  rows: readonly R[],
  sessionId: string,
  withForks: boolean,
): R[] {
  const self = rows.find((r) => r.sessionId === sessionId);
  if (!self) return [];
  if (!withForks) return [self];
  const kids = new Map<string, R[]>();
  for (const r of rows) {
    if (!r.parentSessionId) continue;
    const list = kids.get(r.parentSessionId);
    if (list) list.push(r);
    else kids.set(r.parentSessionId, [r]);
  }
  const out: R[] = [self];
  const seen = new Set([sessionId]);
  for (let i = 0; i < out.length; i++) {
    for (const k of kids.get(out[i]!.sessionId) ?? []) {
      if (seen.has(k.sessionId)) continue;
      seen.add(k.sessionId);
      out.push(k);
    }
  }
  return out;
}

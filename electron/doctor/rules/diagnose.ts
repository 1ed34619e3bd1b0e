/**
 * The doctor's whole reading of one file: every mark, and the repaired file(s) it plans — one per
 * session it holds, each a new session (new id and time, `parentSession` = the source) written next
 * to the source. Nothing here reads or writes a file. PURE.
 */
import { sessionFileName } from '../../core';
import type { Mark } from './marks';
import { hugeEditDiffs, keptTruncatedResults, lostBoundaries, missingParents, orphanToolCalls } from './part-marks';
import { applyEdits, emptyEdits, hasEdits, viewOf } from './part-view';
import type { Part, Rec, SourceReading } from './source';
import { writerEvidence } from './writer';

export interface DoctorEnv {
  /** The source file's absolute path (the repaired files' parentSession). */
  sourcePath: string;
  /** ISO time of the repaired files' headers. */
  now: string;
  newSessionId(): string;
  /** pi's entry ids: one not in `taken`. */
  newEntryId(taken: Set<string>): string;
}

export interface PlannedFile {
  /** Which session of the source (0-based) it holds, and that session's header line. */
  part: number;
  headerLine: number;
  sessionId: string;
  /** The new file's name, next to the source. */
  name: string;
  /** Its lines (header first), each without the newline. */
  lines: string[];
}

export interface Diagnosis {
  sessions: number;
  /** What the file says of the pi that wrote it (its first session). */
  writer: string[];
  marks: Mark[];
  skipped: SourceReading['skipped'];
  /** Nothing when no repair changes anything pi reads. */
  files: PlannedFile[];
}

/** The sources whose entries `diagnose` wants: forks (parentSession) with a compaction boundary they do not hold. */
export function wantedSources(reading: SourceReading): string[] {
  const out = new Set<string>();
  for (const part of reading.parts) {
    const src = part.header.value.parentSession;
    if (typeof src !== 'string') continue;
    const ids = new Set(part.entries.map((e) => e.value.id));
    const lost = part.entries.some(
      (e) =>
        e.value.type === 'compaction' &&
        typeof e.value.firstKeptEntryId === 'string' &&
        e.value.firstKeptEntryId !== e.value.id &&
        !ids.has(e.value.firstKeptEntryId),
    );
    if (lost) out.add(src);
  }
  return [...out];
}

function planPart(part: Part, sources: ReadonlyMap<string, Rec[] | null>, marks: Mark[]) {
  const view = viewOf(part);
  const edits = emptyEdits();
  missingParents(view, edits, marks);
  const src = typeof part.header.value.parentSession === 'string' ? part.header.value.parentSession : undefined;
  lostBoundaries(view, edits, marks, src === undefined ? undefined : sources.get(src), src);
  orphanToolCalls(view, edits, marks);
  keptTruncatedResults(view, edits, marks);
  hugeEditDiffs(view, marks);
  return { view, edits };
}

/** Reads `reading` (one file) against the sources it wanted (entries, or null when unreadable). */
export function diagnose(
  reading: SourceReading,
  sources: ReadonlyMap<string, Rec[] | null>,
  env: DoctorEnv,
): Diagnosis {
  const marks = [...reading.marks];
  const glued = new Set(reading.marks.filter((m) => m.kind === 'glued_line').map((m) => m.line));
  const files: PlannedFile[] = [];
  const split = reading.parts.length > 1;
  reading.parts.forEach((part, index) => {
    const { view, edits } = planPart(part, sources, marks);
    const touched = hasEdits(edits) || part.entries.some((e) => glued.has(e.line)) || glued.has(part.header.line);
    if (!split && !touched) return;
    const taken = new Set<string>();
    for (const e of part.entries) if (typeof e.value.id === 'string') taken.add(e.value.id);
    const newId = (): string => {
      const id = env.newEntryId(taken);
      taken.add(id);
      return id;
    };
    const sessionId = env.newSessionId();
    const header = { ...part.header.value, id: sessionId, timestamp: env.now, parentSession: env.sourcePath };
    files.push({
      part: index,
      headerLine: part.header.line,
      sessionId,
      name: sessionFileName(env.now, sessionId),
      lines: [JSON.stringify(header), ...applyEdits(view, edits, newId)],
    });
  });
  marks.sort((a, b) => a.line - b.line);
  return {
    sessions: reading.parts.length,
    writer: writerEvidence(reading.parts[0]!),
    marks,
    skipped: reading.skipped,
    files,
  };
}

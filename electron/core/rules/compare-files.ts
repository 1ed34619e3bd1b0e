/** A side's changed files as unified diffs (jsdiff) from the ancestor's state. PURE. */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { CompareFileDto, CompareVersusDto } from '../../shared/compare-dto';
import { ELISION, type FileStates, type FileText } from './file-state';

/** Lines a unified diff adds and removes (its `+++`/`---` header lines excluded). */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of diff.split('\n')) {
    if (l.startsWith('+') && !l.startsWith('+++')) added++;
    else if (l.startsWith('-') && !l.startsWith('---')) removed++;
  }
  return { added, removed };
}

function notesOf(f: FileText): string[] {
  const notes: string[] = [];
  if (f.overwrote) notes.push('written whole: its text before the write is not in the session');
  else if (!f.beforeWhole)
    notes.push(`edited only: the ancestor's text is known from the edits' excerpts (${ELISION} = text not shown)`);
  if (f.unreplayed > 0)
    notes.push(`${f.unreplayed} edit(s) succeeded in pi but their old text is not in the text rebuilt here`);
  return notes;
}

/** How long one file's diff may take before it is shown as a whole replacement instead. */
export const DIFF_TIMEOUT_MS = 1000;

/** A unified diff that removes every line of `before` and adds every line of `after`. */
function wholeReplacement(path: string, labels: [string, string], before: string, after: string): string {
  const lines = (t: string) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  const old = lines(before);
  const now = lines(after);
  const body = [...old.map((l) => `-${l}`), ...now.map((l) => `+${l}`)];
  const head = `--- a/${path}\t${labels[0]}\n+++ b/${path}\t${labels[1]}\n`;
  return `${head}@@ -1,${old.length} +1,${now.length} @@\n${body.join('\n')}\n`;
}

const TIMED_OUT = `too different to diff within ${DIFF_TIMEOUT_MS} ms: shown as a whole replacement`;

/** jsdiff's unified diff of one file, or a whole replacement (and a note) when it takes too long. */
function unified(path: string, labels: [string, string], before: string, after: string, notes: string[]): string {
  const diff = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, labels[0], labels[1], {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (diff !== undefined) return diff;
  notes.push(TIMED_OUT);
  return wholeReplacement(path, labels, before, after);
}

const byPath = (x: { path: string }, y: { path: string }) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0);

export function filesOf(files: FileStates, ancestorId: string | null): CompareFileDto[] {
  const labels: [string, string] = [ancestorId ? `ancestor ${ancestorId}` : 'before the session', 'this side'];
  const out: CompareFileDto[] = [];
  for (const [path, f] of files.changed()) {
    const notes = notesOf(f);
    // Excerpts end where an edit's text ended: that is no end of the file, so no "No newline" marker.
    const excerpt = (t: string, whole: boolean) => (whole || t === '' || t.endsWith('\n') ? t : `${t}\n`);
    const diff = unified(path, labels, excerpt(f.before, f.beforeWhole), excerpt(f.after, f.whole), notes);
    out.push({ path, diff, ...diffCounts(diff), beforeWhole: f.beforeWhole && !f.overwrote, notes });
  }
  return out.sort(byPath);
}

/**
 * Side A's text against side B's, for each file either side changed whose text both sides know
 * whole (written on both paths); a file known only by excerpts has no such diff (the two sides'
 * excerpts are not of the same parts).
 */
export function versusFiles(a: FileStates, b: FileStates, paths: Iterable<string>): CompareVersusDto[] {
  const out: CompareVersusDto[] = [];
  for (const path of new Set(paths)) {
    const fa = a.get(path);
    const fb = b.get(path);
    if (!fa?.whole || !fb?.whole) continue;
    const notes: string[] = [];
    const diff = fa.after === fb.after ? '' : unified(path, ['side A', 'side B'], fa.after, fb.after, notes);
    out.push({ path, diff, ...diffCounts(diff), same: diff === '', notes });
  }
  return out.sort(byPath);
}

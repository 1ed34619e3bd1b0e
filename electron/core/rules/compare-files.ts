/** A side's changed files as unified diffs (jsdiff) from the ancestor's state. PURE. */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { CompareFileDto } from '../../shared/compare-dto';
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
function wholeReplacement(path: string, from: string, before: string, after: string): string {
  const lines = (t: string) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  const old = lines(before);
  const now = lines(after);
  const body = [...old.map((l) => `-${l}`), ...now.map((l) => `+${l}`)];
  return `--- a/${path}\t${from}\n+++ b/${path}\tthis side\n@@ -1,${old.length} +1,${now.length} @@\n${body.join('\n')}\n`;
}

export function filesOf(files: FileStates, ancestorId: string | null): CompareFileDto[] {
  const from = ancestorId ? `ancestor ${ancestorId}` : 'before the session';
  const out: CompareFileDto[] = [];
  for (const [path, f] of files.changed()) {
    const notes = notesOf(f);
    // Excerpts end where an edit's text ended: that is no end of the file, so no "No newline" marker.
    const excerpt = (t: string, whole: boolean) => (whole || t === '' || t.endsWith('\n') ? t : `${t}\n`);
    let diff = createTwoFilesPatch(
      `a/${path}`,
      `b/${path}`,
      excerpt(f.before, f.beforeWhole),
      excerpt(f.after, f.whole),
      from,
      'this side',
      {
        context: 3,
        headerOptions: FILE_HEADERS_ONLY,
        timeout: DIFF_TIMEOUT_MS,
      },
    );
    if (diff === undefined) {
      diff = wholeReplacement(path, from, f.before, f.after);
      notes.push(`too different to diff within ${DIFF_TIMEOUT_MS} ms: shown as a whole replacement`);
    }
    out.push({ path, diff, ...diffCounts(diff), beforeWhole: f.beforeWhole && !f.overwrote, notes });
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

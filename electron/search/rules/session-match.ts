import type { SearchQuery, SessionFields } from './search-query';

/**
 * What a session hit shows: the first of its name, cwd, id (and path, for a term with a separator)
 * that a term meets, with the match marked; a term met only scattered marks from its first letter
 * to its last. Falls back to the name (or cwd, or path) unmarked.
 */
export function sessionMatch(query: SearchQuery, s: SessionFields): { snippet: string; match: [number, number] } {
  const fields = [s.name ?? '', s.cwd, s.id];
  for (const t of query.terms) {
    for (const f of [...fields, /[/\\]/.test(t.value) ? s.path : '']) {
      const m = f ? t.pattern.exec(f) : null;
      if (m) return { snippet: f, match: [m.index, m.index + m[0].length] };
    }
  }
  for (const t of query.terms) {
    if (t.kind !== 'word') continue;
    for (const f of [s.name ?? '', s.cwd]) {
      const span = fuzzySpan(t.value, f);
      if (span) return { snippet: f, match: span };
    }
  }
  return { snippet: s.name || s.cwd || s.path, match: [0, 0] };
}

/** Where a scattered word lies in a text: [its first letter, after its last), or null. */
function fuzzySpan(word: string, text: string): [number, number] | null {
  const t = text.toLowerCase();
  let at = -1;
  let first = -1;
  for (const ch of word.toLowerCase()) {
    at = t.indexOf(ch, at + 1);
    if (at === -1) return null;
    if (first < 0) first = at;
  }
  return first < 0 ? null : [first, at + 1];
}

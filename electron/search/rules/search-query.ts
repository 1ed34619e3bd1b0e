/**
 * The search box's language. PURE. pi's `/resume` syntax (session-selector-search.js in
 * pi-coding-agent 1.6.0): words must all match (case-insensitive substrings; a word may also
 * match the session's name or cwd in order with gaps, pi's fuzzy rule), `"exact phrase"` (with
 * whitespace runs equal), `re:<regex>` (case-insensitive; the rest of the query is the pattern).
 * Canopy adds filters before any `re:`: project: role: tool: file: after: before: branch:active.
 */
import { SEARCH_ROLES, type SearchRole } from './search-text';

export interface SearchFilters {
  /** Substrings of the session's cwd (any one). */
  projects: string[];
  roles: SearchRole[];
  /** Tool names, lowercased (any one). */
  tools: string[];
  /** Substrings of a path named by a tool call or result (all). */
  files: string[];
  /** Entry time ≥ after, < before (ms). */
  after: number | null;
  before: number | null;
  activeBranch: boolean;
}

export interface SearchTerm {
  kind: 'word' | 'phrase';
  /** As typed (a phrase trimmed, its whitespace runs made one space). */
  value: string;
  /** Where a match is looked for in an entry's text. */
  pattern: RegExp;
}

export interface SearchQuery {
  terms: SearchTerm[];
  regex: RegExp | null;
  filters: SearchFilters;
}

export type ParsedSearch = { ok: true; query: SearchQuery } | { ok: false; error: string };

const FILTER_KEYS = ['project', 'role', 'tool', 'file', 'after', 'before', 'branch'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function termOf(kind: SearchTerm['kind'], raw: string): SearchTerm | null {
  const parts = raw.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return null;
  return { kind, value: parts.join(' '), pattern: new RegExp(parts.map(escapeRegExp).join('\\s+'), 'i') };
}

/** Splits on whitespace outside double quotes; `"…"` groups (an unclosed quote: plain split, as pi does). */
function tokens(text: string): { value: string; quoted: boolean }[] {
  const out: { value: string; quoted: boolean }[] = [];
  let buf = '';
  let quoted = false;
  let inQuote = false;
  const flush = (): void => {
    if (buf.trim() || quoted) out.push({ value: buf, quoted });
    buf = '';
    quoted = false;
  };
  for (const ch of text) {
    if (ch === '"') {
      if (inQuote) {
        quoted = true;
        inQuote = false;
        // key:"value" stays one token; a bare "phrase" ends here.
        if (!/^[a-z]+:/.test(buf)) flush();
      } else {
        if (!/^[a-z]+:$/.test(buf)) flush();
        inQuote = true;
      }
      continue;
    }
    if (!inQuote && /\s/.test(ch)) {
      flush();
      continue;
    }
    buf += ch;
  }
  if (inQuote)
    return text
      .split(/\s+/)
      .filter(Boolean)
      .map((value) => ({ value, quoted: false }));
  flush();
  return out;
}

function parseDate(key: string, value: string): number | string {
  const ms = /^\d{4}-\d{2}(-\d{2})?$/.test(value) || /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? `${key}: wants a date like 2026-01-31, not ${JSON.stringify(value)}` : ms;
}

/** Applies one `key:value` filter; a string is the error. */
function applyFilter(f: SearchFilters, key: FilterKey, value: string): string | null {
  if (value === '') return `${key}: needs a value`;
  switch (key) {
    case 'project':
      f.projects.push(value.toLowerCase());
      return null;
    case 'role':
      if (!(SEARCH_ROLES as readonly string[]).includes(value))
        return `role: is one of ${SEARCH_ROLES.join(', ')}, not ${JSON.stringify(value)}`;
      f.roles.push(value as SearchRole);
      return null;
    case 'tool':
      f.tools.push(value.toLowerCase());
      return null;
    case 'file':
      f.files.push(value);
      return null;
    case 'after':
    case 'before': {
      const ms = parseDate(key, value);
      if (typeof ms === 'string') return ms;
      f[key] = ms;
      return null;
    }
    case 'branch':
      if (value !== 'active') return `branch: only takes "active", not ${JSON.stringify(value)}`;
      f.activeBranch = true;
      return null;
  }
}

export function parseSearchQuery(input: string): ParsedSearch {
  const filters: SearchFilters = {
    projects: [],
    roles: [],
    tools: [],
    files: [],
    after: null,
    before: null,
    activeBranch: false,
  };
  const trimmed = input.trim();
  // `re:` takes the rest of the query as its pattern; filters may come before it.
  const re = /(^|\s)re:/.exec(trimmed);
  const head = re ? trimmed.slice(0, re.index) : trimmed;
  const terms: SearchTerm[] = [];
  for (const t of tokens(head)) {
    const m = t.value.match(/^([a-z]+):(.*)$/s);
    if (m && (FILTER_KEYS as readonly string[]).includes(m[1]!)) {
      const error = applyFilter(filters, m[1] as FilterKey, m[2]!.trim());
      if (error) return { ok: false, error };
      continue;
    }
    const term = termOf(t.quoted ? 'phrase' : 'word', t.value);
    if (term) terms.push(term);
  }
  let regex: RegExp | null = null;
  if (re) {
    const pattern = trimmed.slice(re.index + re[0].length).trim();
    if (!pattern) return { ok: false, error: 're: needs a pattern' };
    try {
      regex = new RegExp(pattern, 'i');
    } catch (err) {
      return {
        ok: false,
        error: `re: is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  }
  const query: SearchQuery = { terms, regex, filters };
  if (terms.length === 0 && regex === null && !hasFilter(filters)) return { ok: false, error: 'the query is empty' };
  return { ok: true, query };
}

function hasFilter(f: SearchFilters): boolean {
  return (
    f.projects.length + f.roles.length + f.tools.length + f.files.length > 0 || f.after !== null || f.before !== null
  );
}

/** pi's fuzzy rule: every character of `word` appears in `text` in order (case-insensitive). */
export function fuzzyContains(word: string, text: string): boolean {
  const w = word.toLowerCase();
  const t = text.toLowerCase();
  let at = -1;
  for (const ch of w) {
    at = t.indexOf(ch, at + 1);
    if (at === -1) return false;
  }
  return true;
}

/** The session-level fields a word may match instead of the entry (pi matches per session). */
export interface SessionFields {
  id: string;
  path: string;
  cwd: string;
  name: string | null;
}

/**
 * Which terms the session's own fields satisfy: literal in its id, name, cwd or path; a word also
 * fuzzily in its name or cwd (pi: "scattered matches in messages and ids are noise").
 */
export function termsMetBySession(query: SearchQuery, s: SessionFields): boolean[] {
  return query.terms.map((t) => {
    // Every path ends in .jsonl: a term names the path only when it has a separator in it.
    const fields = [s.id, s.name ?? '', s.cwd, /[/\\]/.test(t.value) ? s.path : ''];
    if (fields.some((f) => t.pattern.test(f))) return true;
    return t.kind === 'word' && [s.name ?? '', s.cwd].some((f) => f !== '' && fuzzyContains(t.value, f));
  });
}

export interface TextMatch {
  field: 'text' | 'thinking';
  start: number;
  end: number;
}

function firstMatch(pattern: RegExp, text: string, thinking: string): TextMatch | null {
  const a = pattern.exec(text);
  if (a) return { field: 'text', start: a.index, end: a.index + a[0].length };
  const b = pattern.exec(thinking);
  return b ? { field: 'thinking', start: b.index, end: b.index + b[0].length } : null;
}

/**
 * Whether an entry's text matches: the regex, and every term not met by the session; at least one
 * of them must be in the entry itself. The first such match, for the snippet; null = no hit.
 */
export function matchEntry(
  query: SearchQuery,
  metBySession: readonly boolean[],
  text: string,
  thinking: string,
): TextMatch | null {
  let shown: TextMatch | null = null;
  if (query.regex) {
    shown = firstMatch(query.regex, text, thinking);
    if (!shown) return null;
  }
  for (let i = 0; i < query.terms.length; i++) {
    const m = firstMatch(query.terms[i]!.pattern, text, thinking);
    if (!m && !metBySession[i]) return null;
    shown ??= m;
  }
  if (shown) return shown;
  // Filters alone: every entry they let through is a hit.
  return query.terms.length === 0 && !query.regex ? { field: 'text', start: 0, end: 0 } : null;
}

export interface Snippet {
  text: string;
  /** The match within `text` ([start, end) in UTF-16 units). */
  match: [number, number];
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ');

/** About `width` characters around a match, whitespace collapsed, with the match's place in it. */
export function makeSnippet(source: string, start: number, end: number, width = 120): Snippet {
  const room = Math.max(0, width - (end - start));
  const from = Math.max(0, start - Math.floor(room / 3));
  const to = Math.min(source.length, end + room - (start - from));
  const before = `${from > 0 ? '…' : ''}${collapse(source.slice(from, start)).trimStart()}`;
  const match = collapse(source.slice(start, end));
  const after = `${collapse(source.slice(end, to)).trimEnd()}${to < source.length ? '…' : ''}`;
  return { text: before + match + after, match: [before.length, before.length + match.length] };
}

/**
 * The substrings every hit's indexed text must contain (the trigram prefilter). The index holds
 * text with whitespace runs made one space (search-text.ts indexedText), so a phrase is one
 * substring, spaces and all, and so is a regex's literal run with its whitespace (see regexLiterals).
 */
export function requiredSubstrings(query: SearchQuery, metBySession: readonly boolean[]): string[] {
  const out: string[] = [];
  query.terms.forEach((t, i) => {
    if (!metBySession[i]) out.push(t.value);
  });
  if (query.regex) out.push(...regexLiterals(query.regex.source));
  return out;
}

/**
 * Where an escape whose letter is at `i` ends: \x41, \u00a0, \cJ, \12 and \k<name> go on past their
 * letter (their digits are no literal: `\u00a0` is no "00a0").
 */
function escapeEnd(source: string, i: number): number {
  const c = source[i] ?? '';
  const after = source.slice(i + 1);
  if (c === 'x' && /^[0-9a-fA-F]{2}/.test(after)) return i + 2;
  if (c === 'u' && /^[0-9a-fA-F]{4}/.test(after)) return i + 4;
  if (c === 'c' && /^[a-zA-Z]/.test(after)) return i + 1;
  if (/[0-9]/.test(c)) return i + (/^[0-9]*/.exec(after)?.[0].length ?? 0);
  if (c === 'k' && after.startsWith('<') && after.includes('>')) return i + 1 + after.indexOf('>');
  return i;
}

/**
 * Literal runs a regex cannot match without (none when it has a top-level `|`): plain characters
 * outside classes and groups, an escaped punctuation character, not one made optional by ?, * or {.
 * Required whitespace (a space, `\s`, either with `+`) is one space, as the index folds it: `a\s+b`
 * gives "a b", so the trigrams across words filter too.
 */
export function regexLiterals(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let run = '';
  const end = (): void => {
    if (run) out.push(run);
    run = '';
  };
  /** One whitespace atom ending at `i`: joins the run as one space, unless a quantifier makes it optional; returns the index to go on from. */
  const space = (i: number): number => {
    const next = source[i + 1] ?? '';
    if (/[?*{]/.test(next)) {
      end();
      return i;
    }
    if (!run.endsWith(' ')) run += ' ';
    return next === '+' ? i + 1 : i;
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      i++;
      if (next === 's' && depth === 0) i = space(i);
      else if (/[^\w\s]/.test(next) && depth === 0 && !/[?*{]/.test(source[i + 1] ?? '')) run += next;
      else {
        end();
        i = escapeEnd(source, i);
      }
      continue;
    }
    if (/\s/.test(ch) && depth === 0) {
      i = space(i);
      continue;
    }
    if (ch === '[') {
      end();
      const close = source.indexOf(']', i + 2);
      i = close === -1 ? source.length : close;
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === '|' && depth === 0) return [];
    if ('()^$.+|'.includes(ch) || depth > 0) {
      end();
      continue;
    }
    if (ch === '{') {
      end();
      const close = source.indexOf('}', i);
      i = close === -1 ? source.length : close;
      continue;
    }
    if (ch === '?' || ch === '*') {
      end();
      continue;
    }
    const optional = /[?*{]/.test(source[i + 1] ?? '');
    if (optional) end();
    else run += ch;
  }
  end();
  return out;
}

/**
 * `--redact` for `canopy search` and `canopy context` (what the pi package's session tools ask
 * for): the secret radar's rules plus the user's own redactions, as `canopy export --redact` uses.
 */
import { entrySecrets, redactEntry, redactSnippet, type SecretMatcher, type SnippetSecret } from '../core';
import { matchersFor } from '../repo/export/export-build';
import { loadRedactions, redactionsPath } from '../repo/export/redaction-settings';
import type { SearchHit } from '../repo/search/query';
import { readLines } from '../storage/read';

export async function redactionMatchers(roots: readonly string[]): Promise<SecretMatcher[]> {
  return matchersFor({ format: 'md', redact: true, user: await loadRedactions(redactionsPath(roots)) });
}

/** The given physical lines (1-based) of a file; a line that is gone is left out. */
async function linesOf(path: string, wanted: ReadonlySet<number>): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const last = Math.max(...wanted);
  for await (const l of readLines(path)) {
    if (wanted.has(l.line)) out.set(l.line, l.text);
    if (l.line >= last) break;
  }
  return out;
}

function secretsOfLine(text: string | undefined, matchers: readonly SecretMatcher[]): SnippetSecret[] {
  if (text === undefined) return [];
  try {
    const raw: unknown = JSON.parse(text);
    return typeof raw === 'object' && raw !== null ? entrySecrets(raw as Record<string, unknown>, matchers) : [];
  } catch {
    return [];
  }
}

/** Hits whose snippets hold no secret of their entries (each entry's line is read again). */
export async function redactHits(hits: readonly SearchHit[], matchers: readonly SecretMatcher[]): Promise<SearchHit[]> {
  const linesByPath = new Map<string, Set<number>>();
  for (const h of hits) if (h.entryId) linesByPath.set(h.path, (linesByPath.get(h.path) ?? new Set()).add(h.line));
  const secrets = new Map<string, SnippetSecret[]>();
  for (const [path, lines] of linesByPath) {
    const read = await linesOf(path, lines).catch(() => new Map<number, string>());
    for (const n of lines) secrets.set(`${path}:${n}`, secretsOfLine(read.get(n), matchers));
  }
  return hits.map((h) => {
    const r = redactSnippet(h.snippet, h.match, secrets.get(`${h.path}:${h.line}`) ?? [], matchers);
    return { ...h, snippet: r.snippet, match: r.match };
  });
}

/** A JSON value (a context: its messages, model, …) with the secrets in its strings replaced. */
export function redactObject<T>(message: T, matchers: readonly SecretMatcher[]): T {
  if (typeof message !== 'object' || message === null) return message;
  return redactEntry(message as Record<string, unknown>, '', matchers).raw as T;
}

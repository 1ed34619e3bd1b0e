/**
 * `--redact` for `canopy search` and `canopy context` (what the pi package's session tools ask
 * for): the secret radar's rules plus the user's own redactions, as `canopy export --redact` uses.
 */
import { loadRedactions, redactionsPath } from '../export';
import { redactor } from '../secrets';
import type { SearchHit } from '../search';
import { readLines } from '../storage/read';

type UserRedactions = Awaited<ReturnType<typeof loadRedactions>>;

export function userRedactions(roots: readonly string[]): Promise<UserRedactions> {
  return loadRedactions(redactionsPath(roots));
}

/** The given physical lines (1-based) of a file, parsed; a line that is gone or no JSON object is left out. */
async function entriesAt(path: string, wanted: ReadonlySet<number>): Promise<Map<number, Record<string, unknown>>> {
  const out = new Map<number, Record<string, unknown>>();
  const last = Math.max(...wanted);
  for await (const l of readLines(path)) {
    if (wanted.has(l.line)) {
      try {
        const raw: unknown = JSON.parse(l.text);
        if (typeof raw === 'object' && raw !== null) out.set(l.line, raw as Record<string, unknown>);
      } catch {
        // Not JSON: the snippet's own matches are still redacted.
      }
    }
    if (l.line >= last) break;
  }
  return out;
}

/** Hits whose snippets hold no secret of their entries (each entry's line is read again). */
export async function redactHits(hits: readonly SearchHit[], user: UserRedactions): Promise<SearchHit[]> {
  const linesByPath = new Map<string, Set<number>>();
  for (const h of hits) if (h.entryId) linesByPath.set(h.path, (linesByPath.get(h.path) ?? new Set()).add(h.line));
  const entries = new Map<string, Record<string, unknown>>();
  for (const [path, lines] of linesByPath) {
    const read = await entriesAt(path, lines).catch(() => new Map<number, Record<string, unknown>>());
    for (const [n, raw] of read) entries.set(`${path}:${n}`, raw);
  }
  const snippet = redactor.snippetWith(user);
  return hits.map((h) => {
    const r = snippet(h.snippet, h.match, entries.get(`${h.path}:${h.line}`) ?? null);
    return { ...h, snippet: r.snippet, match: r.match };
  });
}

/** A JSON value (a context: its messages, model, …) with the secrets in its strings replaced. */
export function redactObject<T>(value: T, user: UserRedactions): T {
  if (typeof value !== 'object' || value === null) return value;
  return redactor.redactWith(user)(value as Record<string, unknown>, '').raw as T;
}

/**
 * `canopy search QUERY`: brings the search index up to date with every listed session (progress
 * on stderr), then prints the hits. Exit 0 with hits, 1 without, 2 for a bad query, 3 when the
 * index cannot be used (a cache fault, said in one line).
 */
import type { CliCommand } from './cli-io';
import { parseSearchQuery, searchTimeIso, SearchService } from '../search';
import { resolveRoots } from '../repo/roots';
import type { SearchHit } from '../search';
import { CanopyError } from '../shared/errors';
import { listSessions } from '../repo/sessions';
import { resolve } from 'node:path';
import { redactHits, userRedactions } from './redaction';

const EXIT_HITS = 0;
const EXIT_NO_HITS = 1;
const EXIT_BAD_QUERY = 2;
const EXIT_INDEX_UNUSABLE = 3;

function mtimeMs(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

export const searchCommand: CliCommand = {
  summary: "full-text search across every session (pi's /resume syntax plus filters)",
  usage:
    'canopy search QUERY [--root DIR]... [--cwd DIR] [--limit N] [--redact] [--json]   (--cwd: only sessions started in DIR; --redact: snippets without secrets; QUERY: words "a phrase" re:<regex> project: role: tool: file: after: before: branch:active; exit 0 hits, 1 none, 2 bad query, 3 the index cannot be used)',
  options: {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    root: { type: 'string', multiple: true },
    limit: { type: 'string' },
    cwd: { type: 'string' },
    redact: { type: 'boolean' },
  },
  async run(args, io) {
    const text = args.positionals.join(' ');
    const parsed = parseSearchQuery(text);
    if (!parsed.ok) {
      io.stderr.write(`canopy search: bad query: ${parsed.error}\n`);
      return EXIT_BAD_QUERY;
    }
    const limitText = typeof args.values.limit === 'string' ? args.values.limit : '50';
    const limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 1) {
      io.stderr.write(`canopy search: --limit must be a positive integer, not ${JSON.stringify(limitText)}\n`);
      return EXIT_BAD_QUERY;
    }
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    const listing = await listSessions(roots);
    for (const k of listing.skipped) io.stderr.write(`${k.path}: not searched: ${k.error.message}\n`);
    const cwd = typeof args.values.cwd === 'string' ? resolve(args.values.cwd) : undefined;
    const paths = listing.sessions
      .filter((s) => cwd === undefined || s.cwd === cwd)
      .map((s) => ({ path: s.path, m: mtimeMs(s.modifiedAt) }))
      .sort((a, b) => b.m - a.m)
      .map((s) => s.path);
    let shown = -1;
    let service: SearchService;
    try {
      service = new SearchService({
        roots,
        onStatus: (s) => {
          if (s.done === shown || !s.indexing || s.total === 0) return;
          shown = s.done;
          io.stderr.write(`indexing ${s.done}/${s.total} sessions\r`);
        },
        onProblem: (p) => io.stderr.write(`${p.path}${p.line ? `:${p.line}` : ''}: skipped: ${p.message}\n`),
      });
    } catch (err) {
      io.stderr.write(`canopy search: the search index cannot be used: ${(err as Error).message}\n`);
      return EXIT_INDEX_UNUSABLE;
    }
    try {
      await service.update(paths);
      const status = service.getStatus();
      if (status.rebuilt) io.stderr.write(`the search index was rebuilt: ${status.rebuilt}\n`);
      if (shown >= 0) io.stderr.write(`indexed ${paths.length} sessions (${service.indexPath})\n`);
      // Every hit, a page at a time, until --limit: a script's exit code says whether any exist.
      const scope = new Set(paths);
      const hits: SearchHit[] = [];
      let more = false;
      let fallback: string | null = null;
      let fault = false;
      for (let cursor: string | undefined; ;) {
        const page = await service.query(text, {
          limit: Math.min(500, limit - hits.length + 1),
          paths: scope,
          ...(cursor ? { cursor } : {}),
        });
        hits.push(...page.hits);
        if (page.fallback && !fallback) io.stderr.write(`canopy search: ${(fallback = page.fallback)}\n`);
        fault ||= page.indexFault;
        if (page.stopped) io.stderr.write(`canopy search: ${page.stopped}\n`);
        if (hits.length > limit) {
          hits.length = limit;
          more = true;
        }
        if (more || !page.cursor) break;
        cursor = page.cursor;
      }
      const shownHits = args.values.redact ? await redactHits(hits, await userRedactions(roots)) : hits;
      for (const h of shownHits) {
        if (args.values.json) {
          io.stdout.write(
            `${JSON.stringify({ sessionId: h.sessionId, path: h.path, cwd: h.cwd, entryId: h.entryId, line: h.line, role: h.role, field: h.field, time: searchTimeIso(h.time), snippet: h.snippet, match: h.match })}\n`,
          );
        } else {
          const where = h.entryId
            ? `${h.path}:${h.line} ${h.entryId} (${h.role}${h.field === 'thinking' ? ', thinking' : ''})`
            : `${h.path} (session)`;
          io.stdout.write(`${where}\n  ${h.snippet}\n`);
        }
      }
      if (more && !args.values.json)
        io.stderr.write(`more than ${limit} hits: showing the first ${limit} (--limit N)\n`);
      // The hits printed were read from the files; 3 says the index cannot be used (busy with another build is no fault).
      if (fault) return EXIT_INDEX_UNUSABLE;
      return hits.length > 0 ? EXIT_HITS : EXIT_NO_HITS;
    } catch (err) {
      if (!(err instanceof CanopyError) || err.code !== 'io') throw err;
      io.stderr.write(`canopy search: ${err.message}\n`);
      return EXIT_INDEX_UNUSABLE;
    } finally {
      service.close();
    }
  },
};

/** Search hits grouped by session, in rank order of each session's best hit. PURE. */
import type { SearchHitDto } from '../../lib/shared';

export interface HitGroup {
  sessionId: string;
  title: string;
  cwd: string;
  hits: SearchHitDto[];
}

export function groupHits(hits: readonly SearchHitDto[]): HitGroup[] {
  const groups = new Map<string, HitGroup>();
  for (const h of hits) {
    let g = groups.get(h.sessionId);
    if (!g)
      groups.set(
        h.sessionId,
        (g = { sessionId: h.sessionId, title: h.sessionName || h.fileName, cwd: h.cwd, hits: [] }),
      );
    g.hits.push(h);
  }
  return [...groups.values()];
}

/** The snippet as [before, match, after] for drawing the match marked. */
export function splitSnippet(hit: Pick<SearchHitDto, 'snippet' | 'match'>): [string, string, string] {
  const [a, b] = hit.match;
  return [hit.snippet.slice(0, a), hit.snippet.slice(a, b), hit.snippet.slice(b)];
}

import type { EntryNodeDto, SessionGraphDto } from '../../electron/shared/dto';

let clock = Date.UTC(2026, 0, 1);

/** A graph node; timestamps increase with every call unless given. */
export function node(id: string, parentId: string | null, extra: Partial<EntryNodeDto> = {}): EntryNodeDto {
  clock += 1000;
  return {
    id,
    parentId,
    type: 'message',
    role: 'user',
    line: 0,
    timestamp: new Date(clock).toISOString(),
    preview: `text of ${id}`,
    ...extra,
  };
}

/** Numbers lines in array order (line 1 is the header). */
export function lines(entries: EntryNodeDto[]): EntryNodeDto[] {
  return entries.map((e, i) => ({ ...e, line: i + 2 }));
}

/** A linear chain e0 → e1 → … of alternating user/assistant messages. */
export function chain(n: number, prefix = 'e', parent: string | null = null): EntryNodeDto[] {
  const out: EntryNodeDto[] = [];
  const base = Date.UTC(2026, 1, 1);
  for (let i = 0; i < n; i++) {
    out.push({
      id: `${prefix}${i}`,
      parentId: i === 0 ? parent : `${prefix}${i - 1}`,
      type: 'message',
      role: i % 2 === 0 ? 'user' : 'assistant',
      hasText: true,
      line: i + 2,
      timestamp: new Date(base + i * 1000).toISOString(),
      preview: `step ${i}`,
    } as EntryNodeDto);
  }
  return out;
}

/** Walks parents from the leaf: the CA path (no checkpoint stops). */
export function pathTo(entries: EntryNodeDto[], leafId: string | null): string[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: string[] = [];
  const seen = new Set<string>();
  let cur = leafId;
  while (cur && byId.has(cur) && !seen.has(cur)) {
    seen.add(cur);
    out.unshift(cur);
    cur = byId.get(cur)!.parentId;
  }
  return out;
}

export function graphOf(entries: EntryNodeDto[], opts: Partial<SessionGraphDto> = {}): SessionGraphDto {
  const leafId = opts.leafId !== undefined ? opts.leafId : (entries[entries.length - 1]?.id ?? null);
  return {
    sessionId: 'sess-1',
    cwd: '/home/alice/proj',
    path: '/home/alice/.pi/agent/sessions/--home-alice-proj--/x.jsonl',
    header: { type: 'session', version: 3, id: 'sess-1' },
    profile: 'ca',
    detectedProfile: 'ca',
    entries,
    leafId,
    pathIds: opts.pathIds ?? pathTo(entries, leafId),
    contextEntryIds: [],
    labels: {},
    sessionName: null,
    issues: [],
    sizeBytes: 1000,
    ...opts,
  };
}

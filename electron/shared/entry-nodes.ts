/**
 * A session's graph nodes as columns, for the wire: a 20k-entry session would otherwise send the
 * same field names, types, roles, tool lists and model names 20k times (and the renderer would keep
 * 20k copies of each). Fields every entry has its own value for are columns; the rest of a node (its
 * "kind": type, role, tools, flags, model …) is a table of distinct kinds named by index. PURE.
 */
import type { EntryNodeDto, SessionGraphDto } from './dto';

/** Fields with (nearly) one value per entry; everything else of a node is its kind. */
type Own = 'id' | 'parentId' | 'line' | 'timestamp' | 'preview' | 'targetId' | 'firstKeptEntryId' | 'tokensBefore';
export type EntryKindDto = Omit<EntryNodeDto, Own>;
type Rare = Pick<EntryNodeDto, 'targetId' | 'firstKeptEntryId' | 'tokensBefore'>;

export interface EntryNodesDto {
  ids: string[];
  /** Index in `ids` of an entry with the parent's id; -1: no parent (null); -2: see `looseParents`. */
  parents: number[];
  /** Entry index → a parentId that names no entry of the file. */
  looseParents: Record<string, string>;
  /** Line numbers, each as the difference to the previous one. */
  lines: number[];
  /** Epoch ms, each as the difference to the previous one (0 where `timeTexts` holds the text). */
  times: number[];
  /** Entry index → a timestamp that epoch ms cannot give back exactly. */
  timeTexts: Record<string, string>;
  previews: string[];
  kinds: EntryKindDto[];
  kind: number[];
  /** Entry index → its rare own fields (leaf / label targets, compaction checkpoints). */
  rare: Record<string, Rare>;
}

const RARE: ReadonlyArray<keyof Rare> = ['targetId', 'firstKeptEntryId', 'tokensBefore'];
const OWN = new Set<string>(['id', 'parentId', 'line', 'timestamp', 'preview', ...RARE]);

/** Epoch ms of an ISO timestamp that toISOString writes back identically; null otherwise. */
function exactMs(text: string): number | null {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const d = new Date(ms);
  return d.getUTCFullYear() >= 0 && d.getUTCFullYear() <= 9999 && d.toISOString() === text ? ms : null;
}

export function packEntryNodes(nodes: readonly EntryNodeDto[]): EntryNodesDto {
  const out: EntryNodesDto = { ids: [], parents: [], looseParents: {}, lines: [], times: [], timeTexts: {}, previews: [], kinds: [], kind: [], rare: {} };
  const firstIndex = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (!firstIndex.has(n.id)) firstIndex.set(n.id, i);
  });
  const kindIndex = new Map<string, number>();
  let line = 0;
  let ms = 0;
  nodes.forEach((n, i) => {
    out.ids.push(n.id);
    const p = n.parentId === null ? -1 : (firstIndex.get(n.parentId) ?? -2);
    out.parents.push(p);
    if (p === -2) out.looseParents[i] = n.parentId!;
    out.lines.push(n.line - line);
    line = n.line;
    const t = exactMs(n.timestamp);
    if (t === null) {
      out.times.push(0);
      out.timeTexts[i] = n.timestamp;
    } else {
      out.times.push(t - ms);
      ms = t;
    }
    out.previews.push(n.preview);
    const kind: Record<string, unknown> = {};
    let rare: Rare | null = null;
    for (const [k, v] of Object.entries(n)) {
      if (v === undefined) continue;
      if (!OWN.has(k)) kind[k] = v;
      else if ((RARE as readonly string[]).includes(k) && v !== undefined) (rare ??= {} as Rare)[k as keyof Rare] = v as never;
    }
    if (rare) out.rare[i] = rare;
    const key = JSON.stringify(kind);
    let k = kindIndex.get(key);
    if (k === undefined) {
      k = out.kinds.length;
      out.kinds.push(kind as EntryKindDto);
      kindIndex.set(key, k);
    }
    out.kind.push(k);
  });
  return out;
}

/**
 * The nodes back. Entries of one kind share its strings and tool list (read-only), and a parentId
 * is the parent's own id string: the renderer keeps one copy of each.
 */
export function unpackEntryNodes(p: EntryNodesDto): EntryNodeDto[] {
  const out: EntryNodeDto[] = new Array<EntryNodeDto>(p.ids.length);
  let line = 0;
  let ms = 0;
  for (let i = 0; i < p.ids.length; i++) {
    const parent = p.parents[i]!;
    line += p.lines[i]!;
    const text = p.timeTexts[i];
    let timestamp: string;
    if (text !== undefined) timestamp = text;
    else {
      ms += p.times[i]!;
      timestamp = new Date(ms).toISOString();
    }
    const node = {
      id: p.ids[i]!,
      parentId: parent === -1 ? null : parent === -2 ? (p.looseParents[i] ?? null) : p.ids[parent]!,
      line,
      timestamp,
      preview: p.previews[i]!,
      ...p.kinds[p.kind[i]!],
    } as EntryNodeDto;
    const rare = p.rare[i];
    if (rare) Object.assign(node, rare);
    out[i] = node;
  }
  return out;
}

/** session.open's answer: the graph with its nodes packed. */
export type SessionGraphWireDto = Omit<SessionGraphDto, 'entries'> & { entries: EntryNodesDto };

export function graphToWire(g: SessionGraphDto): SessionGraphWireDto {
  return { ...g, entries: packEntryNodes(g.entries) };
}

export function graphFromWire(w: SessionGraphWireDto): SessionGraphDto {
  return { ...w, entries: unpackEntryNodes(w.entries) };
}

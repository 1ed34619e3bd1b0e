/**
 * A session's graph nodes as columns, for the wire: a 20k-entry session would otherwise send the
 * same field names, types, roles, tool lists and model names 20k times (and the renderer would keep
 * 20k copies of each). Fields every entry has its own value for are columns; the rest of a node (its
 * "kind": type, role, tools, flags, model …) is a table of distinct kinds named by index. PURE.
 */
import type { EntryNodeDto, EntryPreview, SessionGraphDto } from './dto';

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

/** Every field of a kind (`satisfies`: the compiler rejects a list that misses one); KindTable.indexOf reads them in this order. */
const KIND_FIELDS = Object.keys({
  type: 0,
  role: 0,
  toolNames: 0,
  hasText: 0,
  isError: 0,
  stopReason: 0,
  customType: 0,
  checkpoint: 0,
  model: 0,
} satisfies Record<keyof EntryKindDto, 0>) as Array<keyof EntryKindDto>;

/**
 * Distinct kinds, found by their field values one Map level per field (a tool list by its JSON):
 * no key string is built per node.
 */
class KindTable {
  private readonly root = new Map<unknown, unknown>();

  constructor(private readonly kinds: EntryKindDto[]) {}

  /** The kind of a node of type `type` with preview `p`. */
  indexOf(type: string, p: EntryPreview): number {
    // Named reads in KIND_FIELDS' order: a keyed read per field (p[field]) is a slow megamorphic
    // load over the previews' many shapes, 300k nodes × 9 fields.
    const values = [type, p.role, p.toolNames, p.hasText, p.isError, p.stopReason, p.customType, p.checkpoint, p.model];
    let level = this.root;
    const last = values.length - 1;
    for (let f = 0; ; f++) {
      const v = values[f];
      const key = Array.isArray(v) ? JSON.stringify(v) : v;
      const next = level.get(key);
      if (f === last) {
        if (next !== undefined) return next as number;
        const k = this.kinds.length;
        const kind: Record<string, unknown> = {};
        KIND_FIELDS.forEach((field, j) => {
          if (values[j] !== undefined) kind[field] = values[j];
        });
        this.kinds.push(kind as EntryKindDto);
        level.set(key, k);
        return k;
      }
      if (next !== undefined) level = next as Map<unknown, unknown>;
      else level.set(key, (level = new Map()));
    }
  }
}

/**
 * Epoch ms of a timestamp that `toISOString` writes back unchanged (so the renderer rebuilds the
 * very text), NaN for any other: the rule of core's isoMillis, which reads it from bytes.
 */
export function isoEpochMs(text: string): number {
  if (text.length !== 24) return NaN;
  const ms = Date.parse(text);
  return ms === ms && new Date(ms).toISOString() === text ? ms : NaN;
}

/** What a node takes from its entry (the rest is its preview). */
export type NodeEnvelope = Pick<EntryNodeDto, 'id' | 'parentId' | 'type' | 'line' | 'timestamp'>;

export function packEntryNodes(nodes: readonly EntryNodeDto[]): EntryNodesDto {
  return packNodes(nodes, nodes);
}

/**
 * Nodes packed from their entries' envelopes and their previews (index i ↔ node i): a session's
 * entries need no node object each. Each envelope field is read once (an indexed entry decodes it).
 * `previews`: a list, or entry i's preview made on demand. `parentIndexOf(i)`: entry i's parent as the index of the first entry with that id when the caller
 * knows it (the index does), negative when not; only then is the parent looked up by its text.
 */
export function packNodes(
  envelopes: readonly NodeEnvelope[],
  previews: readonly EntryPreview[] | ((i: number) => EntryPreview),
  epochMsOf?: (i: number) => number,
  parentIndexOf?: (i: number) => number,
): EntryNodesDto {
  // A function makes each preview as its node is packed (a short-lived object, not 300k kept ones).
  const previewAt = typeof previews === 'function' ? previews : (i: number) => previews[i]!;
  const n = envelopes.length;
  // push, not new Array(n): V8 keeps a preallocated array of 100k+ holes as a slow dictionary.
  const out: EntryNodesDto = {
    ids: [],
    parents: [],
    looseParents: {},
    lines: [],
    times: [],
    timeTexts: {},
    previews: [],
    kinds: [],
    kind: [],
    rare: {},
  };
  for (let i = 0; i < n; i++) out.ids.push(envelopes[i]!.id);
  let firstIndex: Map<string, number> | null = null;
  const lookUp = (parentId: string): number | undefined => {
    if (!firstIndex) {
      firstIndex = new Map();
      for (let i = 0; i < n; i++) if (!firstIndex.has(out.ids[i]!)) firstIndex.set(out.ids[i]!, i);
    }
    return firstIndex.get(parentId);
  };
  const kinds = new KindTable(out.kinds);
  let line = 0;
  let ms = 0;
  for (let i = 0; i < n; i++) {
    const e = envelopes[i]!;
    const node = previewAt(i);
    const known = parentIndexOf ? parentIndexOf(i) : -1;
    let p = known;
    if (known < 0) {
      const parentId = e.parentId;
      p = parentId === null ? -1 : (lookUp(parentId) ?? -2);
      if (p === -2) out.looseParents[i] = parentId!;
    }
    out.parents.push(p);
    const nodeLine = e.line;
    out.lines.push(nodeLine - line);
    line = nodeLine;
    // A caller that holds the epoch ms (the index does) spares the ISO text made and read back.
    const held = epochMsOf ? epochMsOf(i) : NaN;
    const t = held === held ? held : isoEpochMs(e.timestamp);
    if (t !== t) {
      out.times.push(0);
      out.timeTexts[i] = e.timestamp;
    } else {
      out.times.push(t - ms);
      ms = t;
    }
    out.previews.push(node.preview);
    const { targetId, firstKeptEntryId, tokensBefore } = node;
    if (targetId !== undefined || firstKeptEntryId !== undefined || tokensBefore !== undefined) {
      const rare: Rare = {};
      if (targetId !== undefined) rare.targetId = targetId;
      if (firstKeptEntryId !== undefined) rare.firstKeptEntryId = firstKeptEntryId;
      if (tokensBefore !== undefined) rare.tokensBefore = tokensBefore;
      out.rare[i] = rare;
    }
    out.kind.push(kinds.indexOf(e.type, node));
  }
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

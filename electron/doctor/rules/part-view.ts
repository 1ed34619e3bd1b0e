/**
 * One session of a file as a tree the repair rules look at, and the edits they plan on it: new
 * parents, a new compaction boundary, entries inserted after an entry (its children then hang from
 * the last one inserted). Applying the edits gives the repaired file's entry lines; an entry no edit
 * touches is copied byte for byte. PURE.
 */
import type { Part, Piece, Rec } from './source';

export interface PartView {
  entries: Piece[];
  /** Entry id → index (the later line wins, as in pi's index). */
  byId: Map<string, number>;
  /** Each entry's parent once the planned re-attachments are made. */
  parent: (string | null)[];
  /** Parent id → child indexes, in file order (from `parent`). */
  children: Map<string, number[]>;
}

export interface Edits {
  parent: Map<number, string | null>;
  firstKept: Map<number, string>;
  /** Anchor id → entries to insert after it (their ids and parents are set when applied). */
  insertAfter: Map<string, Rec[]>;
}

export const idOf = (e: Piece | undefined): string | undefined =>
  typeof e?.value.id === 'string' ? e.value.id : undefined;

export function viewOf(part: Part): PartView {
  const byId = new Map<string, number>();
  part.entries.forEach((e, i) => {
    const id = idOf(e);
    if (id !== undefined) byId.set(id, i);
  });
  const parent = part.entries.map((e) => (typeof e.value.parentId === 'string' ? e.value.parentId : null));
  return { entries: part.entries, byId, parent, children: new Map() };
}

/** Fills `view.children` from `view.parent` (after the re-attachments are planned). */
export function linkChildren(view: PartView): void {
  view.children.clear();
  view.parent.forEach((p, i) => {
    if (p === null) return;
    const list = view.children.get(p);
    if (list) list.push(i);
    else view.children.set(p, [i]);
  });
}

export function emptyEdits(): Edits {
  return { parent: new Map(), firstKept: new Map(), insertAfter: new Map() };
}

export function insertAfter(edits: Edits, anchor: string, entries: Rec[]): void {
  edits.insertAfter.set(anchor, [...(edits.insertAfter.get(anchor) ?? []), ...entries]);
}

export const hasEdits = (e: Edits): boolean => e.parent.size + e.firstKept.size + e.insertAfter.size > 0;

/**
 * The repaired part's entry lines. Inserted entries get pi's entry ids (`newId`, never one the part
 * holds) and are chained after their anchor; the anchor's children move under the last of them.
 */
export function applyEdits(view: PartView, edits: Edits, newId: () => string): string[] {
  const inserted = new Map<string, Rec[]>();
  for (const [anchor, list] of edits.insertAfter) {
    let parentId = anchor;
    inserted.set(
      anchor,
      list.map((e) => {
        const id = newId();
        const out = { type: e.type, id, parentId, ...e };
        parentId = id;
        return out;
      }),
    );
  }
  const out: string[] = [];
  view.entries.forEach((piece, i) => {
    const original = typeof piece.value.parentId === 'string' ? piece.value.parentId : null;
    let parentId = edits.parent.has(i) ? edits.parent.get(i)! : original;
    const chain = parentId === null ? undefined : inserted.get(parentId);
    if (chain) parentId = chain[chain.length - 1]!.id as string;
    const firstKept = edits.firstKept.get(i);
    if (parentId === original && firstKept === undefined) out.push(piece.text);
    else {
      const v: Rec = { ...piece.value, parentId };
      if (firstKept !== undefined) v.firstKeptEntryId = firstKept;
      out.push(JSON.stringify(v));
    }
    const id = idOf(piece);
    const mine = id === undefined ? undefined : inserted.get(id);
    if (mine) for (const e of mine) out.push(JSON.stringify(e));
  });
  return out;
}

/**
 * Two branches compared from their common ancestor. PURE.
 *
 * Each side is a leaf in a session (the same session, or a fork in the same family: forks copy
 * entries with their ids). Its path is pi's walk for the session's profile (readPath); the common
 * ancestor is the deepest entry of B's path that A's path holds (same id, type and timestamp, as
 * lineage's fork point matches copied entries). Each side is then its path after the ancestor.
 */
import type { CompareDto, CompareSideDto, CompareStatsDto } from '../../shared/compare-dto';
import type { Entry, ParsedSession, Profile } from '../types';
import { alignTurns, compareEntry, firstDivergence, turnsOf } from './compare-turns';
import { filesOf, versusFiles } from './compare-files';
import { ledgerOf } from './cost-ledger';
import { previewEntry } from './entry-preview';
import { FileStates } from './file-state';
import { detectProfile } from './profile';
import { readPath } from './reading';

export interface CompareLeaf {
  session: ParsedSession;
  leafId: string;
  /** Default: the session's detected profile. */
  profile?: Profile;
  /** Carried into the result (the app names sessions by id). */
  sessionId?: string;
}

/** The path to a leaf under the profile's rules; throws RangeError when the leaf is not an entry of the session. */
function pathTo(leaf: CompareLeaf): { profile: Profile; path: Entry[] } {
  const profile = leaf.profile ?? detectProfile(leaf.session);
  if (!leaf.session.entriesOf(profile).byId.has(leaf.leafId))
    throw new RangeError(`entry ${leaf.leafId} is not in the session`);
  return { profile, path: readPath(leaf.session, { profile, leafId: leaf.leafId }).path.entries };
}

const sameEntry = (a: Entry, b: Entry) => a.id === b.id && a.type === b.type && a.timestamp === b.timestamp;

/** Positions of the common ancestor on both paths (-1, -1 when they share no entry). */
export function commonAncestor(a: readonly Entry[], b: readonly Entry[]): [number, number] {
  const atA = new Map<string, number>();
  a.forEach((e, k) => atA.set(e.id, k));
  for (let k = b.length - 1; k >= 0; k--) {
    const ka = atA.get(b[k]!.id);
    if (ka !== undefined && sameEntry(a[ka]!, b[k]!)) return [ka, k];
  }
  return [-1, -1];
}

function statsOf(entries: readonly Entry[]): CompareStatsDto {
  const stats: CompareStatsDto = {
    entries: entries.length,
    messages: 0,
    toolCalls: 0,
    errors: 0,
    usage: ledgerOf(entries),
    modelChanges: [],
    thinkingChanges: [],
    compactions: [],
  };
  for (const e of entries) {
    const raw = e.raw;
    if (e.type === 'message') {
      stats.messages++;
      const p = previewEntry(e);
      if (p.role === 'assistant') stats.toolCalls += p.toolNames?.length ?? 0;
      if (p.isError && (p.role === 'assistant' || p.role === 'toolResult')) stats.errors++;
    } else if (e.type === 'model_change') {
      stats.modelChanges.push({ entryId: e.id, model: `${String(raw.provider)}/${String(raw.modelId)}` });
    } else if (e.type === 'thinking_level_change') {
      stats.thinkingChanges.push({ entryId: e.id, level: String(raw.thinkingLevel) });
    } else if (e.type === 'compaction') {
      stats.compactions.push(e.id);
    }
  }
  return stats;
}

function sideOf(
  leaf: CompareLeaf,
  profile: Profile,
  entries: Entry[],
  files: FileStates,
  ancestor: string | null,
): CompareSideDto {
  for (const e of entries) files.read(e);
  const stats = statsOf(entries);
  return {
    ...(leaf.sessionId !== undefined ? { sessionId: leaf.sessionId } : {}),
    leafId: leaf.leafId,
    profile,
    entryIds: entries.map((e) => e.id),
    turns: turnsOf(entries),
    stats,
    cost: stats.usage.costTotal,
    files: filesOf(files, ancestor),
    shell: files.shell.slice(),
  };
}

/** The comparison of two leaves; throws RangeError when a leaf is not an entry of its session. */
export function compareBranches(a: CompareLeaf, b: CompareLeaf): CompareDto {
  const pa = pathTo(a);
  const pb = pathTo(b);
  const [ka, kb] = commonAncestor(pa.path, pb.path);
  // The files at the ancestor: replayed along the shared part of the path (A's copy of it).
  const shared = new FileStates(a.session.header?.cwd ?? '');
  for (let k = 0; k <= ka; k++) shared.read(pa.path[k]!);
  const ancestorEntry = ka >= 0 ? pa.path[ka]! : null;
  const ancestorId = ancestorEntry?.id ?? null;
  const filesA = shared.fork();
  const filesB = shared.fork();
  const side = (leaf: CompareLeaf, p: { profile: Profile; path: Entry[] }, k: number, files: FileStates) => {
    files.start();
    return sideOf(leaf, p.profile, p.path.slice(k + 1), files, ancestorId);
  };
  const sideA = side(a, pa, ka, filesA);
  const sideB = side(b, pb, kb, filesB);
  const rows = alignTurns(sideA.turns, sideB.turns);
  return {
    ancestorId,
    ancestor: ancestorEntry ? compareEntry(ancestorEntry) : null,
    sides: [sideA, sideB],
    rows,
    firstDivergence: firstDivergence(rows),
    versus: versusFiles(
      filesA,
      filesB,
      [...sideA.files, ...sideB.files].map((f) => f.path),
    ),
  };
}

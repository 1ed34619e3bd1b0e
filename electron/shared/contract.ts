/**
 * THE IPC contract: every channel with its argument and result types. Main (handlers), preload
 * (api object) and renderer (lib/api.ts) all derive from this file, so a channel added here without
 * a handler, a validator or a preload function fails to compile.
 */
import type {
  AppInfo,
  EntryDetailDto,
  ProfileDto,
  SessionListDto,
  SessionSummaryDto,
} from './dto';
import type { ContextViewDto, ForkPreviewDto, ForkRequestDto, ForkResultDto, LineageDto } from './context-dto';
import type { EntryNodesDto, SessionGraphWireDto } from './entry-nodes';
import type { EntryPreviewDto } from './dto';
import type { Result } from './errors';

export interface Contract {
  'app.info': { args: Record<string, never>; result: AppInfo };
  'sessions.list': { args: { refresh?: boolean }; result: SessionListDto };
  'sessions.summaries': { args: { sessionIds: string[] }; result: Record<string, SessionSummaryDto> };
  /** The graph with its nodes packed (entry-nodes.ts graphFromWire unpacks them). */
  'session.open': { args: { sessionId: string; profile?: ProfileDto; leafId?: string | null }; result: SessionGraphWireDto };
  /**
   * Previews (and the flags that need a body) of the named entries of a graph session.open sent
   * `pending`: read in one batch, kept in a byte-bounded cache.
   */
  'session.previews': { args: { sessionId: string; entryIds: string[] }; result: Record<string, EntryPreviewDto> };
  /**
   * Every node of the session with its preview and body flags (one pass over the bodies, with
   * `session.progress` 'previews' events): what session.open sends when it is not `pending`.
   */
  'session.flags': { args: { sessionId: string }; result: { entries: EntryNodesDto } };
  'entry.get': { args: { sessionId: string; entryId: string }; result: EntryDetailDto };
  /** What reaches the model at a leaf (default: the profile's current leaf; null = before the first entry). */
  'session.context': { args: { sessionId: string; profile?: ProfileDto; leafId?: string | null }; result: ContextViewDto };
  /** What a fork/clone would write; pi's refusal is a value here, nothing is written. */
  'session.forkPreview': { args: { sessionId: string; request: ForkRequestDto; profile?: ProfileDto }; result: ForkPreviewDto };
  /** Writes the fork/clone as a new file next to the source; a refusal is CanopyError `invalid_fork_target`. */
  'session.fork': { args: { sessionId: string; request: ForkRequestDto; profile?: ProfileDto }; result: ForkResultDto };
  'session.lineage': { args: { sessionId: string }; result: LineageDto };
  /** Stops the session.open calls of a session still running (they fail with `cancelled`). */
  'session.cancelOpen': { args: { sessionId: string }; result: { cancelled: boolean } };
}

export type Channel = keyof Contract;
export type Args<C extends Channel> = Contract[C]['args'];
export type ResultOf<C extends Channel> = Contract[C]['result'];

/** The runtime list of channels. `satisfies` + the exhaustiveness check below keep it in step. */
export const CHANNELS = [
  'app.info',
  'sessions.list',
  'sessions.summaries',
  'session.open',
  'session.previews',
  'session.flags',
  'entry.get',
  'session.context',
  'session.forkPreview',
  'session.fork',
  'session.lineage',
  'session.cancelOpen',
] as const satisfies readonly Channel[];

type Missing = Exclude<Channel, (typeof CHANNELS)[number]>;
// Fails to compile when a channel of the contract is not listed in CHANNELS.
export const _channelsComplete: Missing extends never ? true : Missing = true;

/** Events pushed from main to the renderer. */
export interface Events {
  'sessions.changed': { reason: 'added' | 'changed' | 'removed' };
  'session.appended': { sessionId: string; sizeBytes: number };
  /**
   * A session.open that has run for a while: bytes of the file read so far while indexing it
   * ('index') and while reading the bodies the graph's previews need ('previews', also session.flags).
   */
  'session.progress': { sessionId: string; phase: 'index' | 'previews'; done: number; total: number };
  /** A listing that has run for a while: session files read so far. */
  'sessions.progress': { done: number; total: number };
}
export type EventName = keyof Events;
export const EVENTS = ['sessions.changed', 'session.appended', 'session.progress', 'sessions.progress'] as const satisfies readonly EventName[];

/** What the preload exposes as `window.api` (and what the HTTP client implements). */
export type Api = { [C in Channel]: (args: Args<C>) => Promise<Result<ResultOf<C>>> } & {
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

/** What main implements: one handler per channel; a missing one fails to compile. */
export type Handlers = { [C in Channel]: (args: Args<C>) => Promise<ResultOf<C>> };

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

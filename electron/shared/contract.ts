/**
 * THE IPC contract: every channel with its argument and result types. Main (handlers), preload
 * (api object) and renderer (lib/api.ts) all derive from this file, so a channel added here without
 * a handler, a validator or a preload function fails to compile.
 */
import type {
  AppInfo,
  EntryDetailDto,
  PayloadPageDto,
  ProfileDto,
  SearchResultDto,
  SearchStatusDto,
  SessionListDto,
  SessionsChangeDto,
  SessionSummaryDto,
} from './dto';
import type { ContextViewDto, ForkPreviewDto, ForkRequestDto, ForkResultDto, LineageDto } from './context-dto';
import type { EntryNodesDto, SessionGraphWireDto } from './entry-nodes';
import type { EntryPreviewDto } from './dto';
import type { Result } from './errors';
import type { DoctorReportDto, DoctorStoreDto } from './doctor-dto';
import type {
  ExportPreviewDto,
  ExportRequestDto,
  ExportWriteDto,
  LedgerEntryDto,
  RedactionsDto,
  SecretsStatusDto,
  SessionSecretsDto,
} from './share-dto';
import type {
  ArchivePreviewDto,
  ArchiveResultDto,
  SlimPreviewDto,
  SlimRequestDto,
  SlimResultDto,
  StoreReportDto,
} from './store-dto';
import type { CompareDto } from './compare-dto';
import type { SessionAppendedDto, SessionContextChangedDto } from './live-dto';
import type {
  ContinueResultDto,
  KeepChangedDto,
  KeepPatchDto,
  KeepRecordDto,
  TrashPreviewDto,
  TrashRecordDto,
} from './keep-dto';

export interface Contract {
  'app.info': { args: Record<string, never>; result: AppInfo };
  'sessions.list': { args: { refresh?: boolean }; result: SessionListDto };
  'sessions.summaries': { args: { sessionIds: string[] }; result: Record<string, SessionSummaryDto> };
  /** The graph with its nodes packed (entry-nodes.ts graphFromWire unpacks them). */
  'session.open': {
    args: { sessionId: string; profile?: ProfileDto; leafId?: string | null };
    result: SessionGraphWireDto;
  };
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
  /**
   * A slice of a heavy payload entry.get cut (its `payloads`): a page of text (offset/length in
   * bytes of the file, default from where the cut ends) or base64 characters of an image.
   */
  'entry.payload': {
    args: { sessionId: string; entryId: string; payloadId: string; offset?: number; length?: number };
    result: PayloadPageDto;
  };
  /** What reaches the model at a leaf (default: the profile's current leaf; null = before the first entry). */
  'session.context': {
    args: { sessionId: string; profile?: ProfileDto; leafId?: string | null };
    result: ContextViewDto;
  };
  /** What a fork/clone would write; pi's refusal is a value here, nothing is written. */
  'session.forkPreview': {
    args: { sessionId: string; request: ForkRequestDto; profile?: ProfileDto };
    result: ForkPreviewDto;
  };
  /** Writes the fork/clone as a new file next to the source; a refusal is CanopyError `invalid_fork_target`. */
  'session.fork': { args: { sessionId: string; request: ForkRequestDto; profile?: ProfileDto }; result: ForkResultDto };
  'session.lineage': { args: { sessionId: string }; result: LineageDto };
  /** Stops the session.open calls of a session still running (they fail with `cancelled`). */
  'session.cancelOpen': { args: { sessionId: string }; result: { cancelled: boolean } };
  /**
   * Full-text search of every listed session (pi's /resume syntax plus filters), a page at a time: `cursor`
   * (from the previous page, same `query`) continues it; a bad query or an unknown/expired cursor is `invalid_argument`.
   */
  'search.query': { args: { query: string; limit?: number; cursor?: string }; result: SearchResultDto };
  /** How far the background index build got (it starts after the first listing). */
  'search.status': { args: Record<string, never>; result: SearchStatusDto };
  /**
   * A file's bytes (a file input or a drop): kept read-only outside every root and listed under
   * "Opened". The renderer never names a path: paths come from main's dialog and argv only.
   */
  'session.upload': { args: { name: string; text: string }; result: { sessionId: string } };
  /** File ▸ Open…: main's native dialog (Electron only; serve answers `forbidden`, use session.upload). */
  'session.openDialog': { args: Record<string, never>; result: { sessionIds: string[] } };
  /** A listed session by id or file path (the palette); adds nothing, an unlisted path is `not_found`. */
  'session.find': { args: { idOrPath: string }; result: { sessionId: string } };
  /** The secret radar's background scan (it starts after the first listing). */
  'secrets.status': { args: Record<string, never>; result: SecretsStatusDto };
  /** Findings per listed session id (scanned sessions only; 0 = none). */
  'secrets.counts': { args: Record<string, never>; result: Record<string, number> };
  /** A session's findings, masked. */
  'secrets.session': { args: { sessionId: string }; result: SessionSecretsDto };
  /** The value of one finding (its index in secrets.session), shown only when the user asks. */
  'secrets.reveal': { args: { sessionId: string; index: number }; result: { value: string } };
  /** What an export would hold and every replacement it makes (masked); nothing is written. */
  'export.preview': { args: ExportRequestDto; result: ExportPreviewDto };
  /** Electron: written where the user chooses in main's save dialog (never over a file); serve: the text to download. */
  'export.write': { args: ExportRequestDto; result: ExportWriteDto };
  /** Every export Canopy wrote, newest first. */
  'export.ledger': { args: Record<string, never>; result: LedgerEntryDto[] };
  'redactions.get': { args: Record<string, never>; result: RedactionsDto };
  /** Saves the user's redactions; a regex that does not compile is `invalid_argument`. */
  'redactions.set': { args: RedactionsDto; result: RedactionsDto };
  /** The whole store's spend and bytes, computed in the background (progress: `store.progress`); `refresh` recomputes. */
  'store.report': { args: { refresh?: boolean }; result: StoreReportDto };
  /** What a slim copy of a session would hold (nothing is written). */
  'store.slimPreview': { args: SlimRequestDto; result: SlimPreviewDto };
  /** Writes a slim copy next to the session (a new file, listed); the source is never changed. */
  'store.slim': { args: SlimRequestDto; result: SlimResultDto };
  /** Fork families under the roots none of whose files was written for `staleDays` days (nothing moves). */
  'store.archivePreview': { args: { staleDays: number }; result: ArchivePreviewDto };
  /** Moves the named families of that preview (whole, re-checked) to the archive folder outside the roots. */
  'store.archive': { args: { staleDays: number; familyIds: string[] }; result: ArchiveResultDto };
  /**
   * Two leaves compared from their common ancestor (one session, or a session and a fork of its
   * family); a side without `leafId` is at its session's current leaf. An unknown leaf is `not_found`.
   */
  'session.compare': { args: { a: CompareLeafArg; b: CompareLeafArg; profile?: ProfileDto }; result: CompareDto };
  /** Canopy's names, tags, pins and notes, by session id (kept in its data folder, never in a session file). */
  'keep.get': { args: Record<string, never>; result: Record<string, KeepRecordDto> };
  /** Changes one session's record (`keep.changed` tells every window); null: nothing left to keep. */
  'keep.set': { args: { sessionId: string; patch: KeepPatchDto }; result: KeepRecordDto | null };
  /** What trashing a session (and its forks, `withForks`) would move; nothing moves. */
  'trash.preview': { args: { sessionId: string; withForks: boolean }; result: TrashPreviewDto };
  /** Moves them to the OS trash and records where they went. */
  'trash.move': { args: { sessionId: string; withForks: boolean }; result: TrashRecordDto };
  /** What Canopy trashed, newest first. */
  'trash.list': { args: Record<string, never>; result: TrashRecordDto[] };
  /** Puts a trashing back where it was (never over a file that is there now). */
  'trash.restore': { args: { id: string }; result: TrashRecordDto };
  /** Continue in pi: the app opens a terminal running pi on the session; serve answers the command to copy. */
  'session.continue': { args: { sessionId: string; fork?: boolean }; result: ContinueResultDto };
  /** The damage old pi versions left in a session, and the repaired file(s) a repair would write (nothing is written). */
  'doctor.examine': { args: { sessionId: string }; result: DoctorReportDto };
  /** Writes the repaired file(s) next to the session (new sessions, listed); the source is never changed. */
  'doctor.repair': { args: { sessionId: string }; result: DoctorReportDto };
  /** Every listed session examined in the background (progress: `doctor.progress`); `refresh` examines again. */
  'doctor.store': { args: { refresh?: boolean }; result: DoctorStoreDto };
  /**
   * A fork handed to a running pi (with Canopy's pi package): `send` false says which pi would get it
   * (null: none runs); true offers it, and pi asks its user (`status` `asked`, else why not).
   */
  'pi.handback': { args: { sessionId: string; send: boolean }; result: PiHandbackDto };
}

export interface PiHandbackDto {
  pi: { pid: number; sessionFile: string | null } | null;
  status: string | null;
}

/** One side of session.compare. */
export interface CompareLeafArg {
  sessionId: string;
  leafId?: string;
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
  'entry.payload',
  'session.context',
  'session.forkPreview',
  'session.fork',
  'session.lineage',
  'session.cancelOpen',
  'search.query',
  'search.status',
  'session.upload',
  'session.openDialog',
  'session.find',
  'secrets.status',
  'secrets.counts',
  'secrets.session',
  'secrets.reveal',
  'export.preview',
  'export.write',
  'export.ledger',
  'redactions.get',
  'redactions.set',
  'store.report',
  'store.slimPreview',
  'store.slim',
  'store.archivePreview',
  'store.archive',
  'session.compare',
  'keep.get',
  'keep.set',
  'trash.preview',
  'trash.move',
  'trash.list',
  'trash.restore',
  'session.continue',
  'doctor.examine',
  'doctor.repair',
  'doctor.store',
  'pi.handback',
] as const satisfies readonly Channel[];

type Missing = Exclude<Channel, (typeof CHANNELS)[number]>;
// Fails to compile when a channel of the contract is not listed in CHANNELS.
export const _channelsComplete: Missing extends never ? true : Missing = true;

/** Events pushed from main to the renderer. */
export interface Events {
  /** `change`: the rows to patch the listing with; absent: the listing may differ in unknown ways (list again). */
  'sessions.changed': { reason: 'added' | 'changed' | 'removed'; change?: SessionsChangeDto };
  /** An open session's file changed: the delta to apply (seq numbered per open session), or a reset to fetch once. */
  'session.appended': SessionAppendedDto;
  /** The context at the current leaf moved from the one of change `base` to change `seq` (sessions whose context was asked). */
  'session.contextChanged': SessionContextChangedDto;
  /**
   * A session.open that has run for a while: bytes of the file read so far while indexing it
   * ('index') and while reading the bodies the graph's previews need ('previews', also session.flags).
   */
  'session.progress': { sessionId: string; phase: 'index' | 'previews'; done: number; total: number };
  /** A listing that has run for a while: session files read so far. */
  'sessions.progress': { done: number; total: number };
  /** The search index build's progress (and its end: indexing false). */
  'search.progress': SearchStatusDto;
  /** The secret radar's scan progress (and its end: scanning false). */
  'secrets.progress': SecretsStatusDto;
  /** The store report's pass: bytes read of every listed session's. */
  'store.progress': { state: StoreReportDto['state']; done: number; total: number };
  /** A session's kept record changed (or was cleared): what it is now. */
  'keep.changed': KeepChangedDto;
  /** The doctor's pass over the store: sessions examined so far. */
  'doctor.progress': { state: DoctorStoreDto['state']; done: number; total: number };
}
export type EventName = keyof Events;
export const EVENTS = [
  'sessions.changed',
  'session.appended',
  'session.contextChanged',
  'session.progress',
  'sessions.progress',
  'search.progress',
  'secrets.progress',
  'store.progress',
  'keep.changed',
  'doctor.progress',
] as const satisfies readonly EventName[];
type MissingEvent = Exclude<EventName, (typeof EVENTS)[number]>;
// Fails to compile when an event of the contract is not listed in EVENTS.
export const _eventsComplete: MissingEvent extends never ? true : MissingEvent = true;

/** The client side of one channel. */
export type ChannelMethod<C extends Channel> = (args: Args<C>) => Promise<Result<ResultOf<C>>>;
export type ChannelMethods = { [C in Channel]: ChannelMethod<C> };

/**
 * One method per channel, each made by `make`: the preload and the HTTP client build their api
 * from it, so neither needs a cast; the literal is checked complete by its return type.
 */
export function channelMethods(make: <C extends Channel>(channel: C) => ChannelMethod<C>): ChannelMethods {
  return {
    'app.info': make('app.info'),
    'sessions.list': make('sessions.list'),
    'sessions.summaries': make('sessions.summaries'),
    'session.open': make('session.open'),
    'entry.get': make('entry.get'),
    'entry.payload': make('entry.payload'),
    'session.context': make('session.context'),
    'session.forkPreview': make('session.forkPreview'),
    'session.fork': make('session.fork'),
    'session.lineage': make('session.lineage'),
    'session.cancelOpen': make('session.cancelOpen'),
    'search.query': make('search.query'),
    'search.status': make('search.status'),
    'session.upload': make('session.upload'),
    'session.openDialog': make('session.openDialog'),
    'session.find': make('session.find'),
    'session.previews': make('session.previews'),
    'session.flags': make('session.flags'),
    'secrets.status': make('secrets.status'),
    'secrets.counts': make('secrets.counts'),
    'secrets.session': make('secrets.session'),
    'secrets.reveal': make('secrets.reveal'),
    'export.preview': make('export.preview'),
    'export.write': make('export.write'),
    'export.ledger': make('export.ledger'),
    'redactions.get': make('redactions.get'),
    'redactions.set': make('redactions.set'),
    'store.report': make('store.report'),
    'store.slimPreview': make('store.slimPreview'),
    'store.slim': make('store.slim'),
    'store.archivePreview': make('store.archivePreview'),
    'store.archive': make('store.archive'),
    'session.compare': make('session.compare'),
    'keep.get': make('keep.get'),
    'keep.set': make('keep.set'),
    'trash.preview': make('trash.preview'),
    'trash.move': make('trash.move'),
    'trash.list': make('trash.list'),
    'trash.restore': make('trash.restore'),
    'session.continue': make('session.continue'),
    'doctor.examine': make('doctor.examine'),
    'doctor.repair': make('doctor.repair'),
    'doctor.store': make('doctor.store'),
    'pi.handback': make('pi.handback'),
  };
}

/** What the preload exposes as `window.api` (and what the HTTP client implements). */
export type Api = ChannelMethods & {
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

/** What main implements: one handler per channel; a missing one fails to compile. */
export type Handlers = { [C in Channel]: (args: Args<C>) => Promise<ResultOf<C>> };

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENTS as readonly string[]).includes(value);
}

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

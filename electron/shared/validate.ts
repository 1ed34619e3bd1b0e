/**
 * Runtime argument validation for every channel. Main treats the renderer as untrusted: arguments
 * arrive as `unknown` and must match the contract exactly (no extra keys, bounded sizes).
 */
import type { ForkRequestDto } from './context-dto';
import type { Args, Channel } from './contract';
import { CanopyError } from './errors';
import type { ExportRequestDto } from './share-dto';
import type { KeepPatchDto } from './keep-dto';

const MAX_ID = 256;
const MAX_IDS = 5000;
const MAX_QUERY = 2000;
/** An uploaded session's text (characters); serve's body limit for session.upload matches it. */
export const MAX_UPLOAD_CHARS = 256 * 1024 * 1024;
const MAX_PATH = 4096;

type Validator<T> = (value: unknown) => T;

function fail(message: string): never {
  throw new CanopyError('invalid_argument', message);
}

function record(value: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) fail('arguments must be an object');
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail(`unexpected argument "${key}"`);
  }
  return obj;
}

/** Ids are opaque strings chosen by pi or by Canopy's catalog: non-empty, bounded, no control chars. */
export function isId(value: unknown): value is string {
  // eslint-disable-next-line no-control-regex
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID && !/[\u0000-\u001f]/.test(value);
}

function id(value: unknown, name: string): string {
  if (!isId(value)) fail(`${name} must be a non-empty id string`);
  return value;
}

/**
 * Entry ids are pi's: any non-empty string (pi checks nothing else), so one over 256 characters or
 * with control characters is accepted (and escaped where it is shown); bounded by the body limit.
 */
const MAX_ENTRY_ID = 1024 * 1024;

export function isEntryId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ENTRY_ID;
}

function entryId(value: unknown, name: string): string {
  if (!isEntryId(value)) fail(`${name} must be a non-empty string`);
  return value;
}

function profile(value: unknown): 'ca' | 'h3' | undefined {
  if (value === undefined) return undefined;
  if (value === 'ca' || value === 'h3') return value;
  return fail('profile must be "ca" or "h3"');
}

function optionalLeaf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  return entryId(value, 'leafId');
}

/** A slim request: a session id, dropImages, and an optional byte limit for outputs. */
function slimArgs(v: unknown): Args<'store.slim'> {
  const o = record(v, ['sessionId', 'dropImages', 'maxOutputBytes']);
  if (typeof o.dropImages !== 'boolean') fail('dropImages must be a boolean');
  const out: Args<'store.slim'> = { sessionId: id(o.sessionId, 'sessionId'), dropImages: o.dropImages };
  if (o.maxOutputBytes !== undefined) out.maxOutputBytes = count(o.maxOutputBytes, 'maxOutputBytes', 0);
  if (!out.dropImages && out.maxOutputBytes === undefined) fail('a slim copy drops images, cuts outputs, or both');
  return out;
}

/** A fork request, field by field: `{kind:'fork', entryId, position}` or `{kind:'clone', leafId?}`. */
function forkRequest(value: unknown): ForkRequestDto {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('request must be an object');
  const kind = (value as Record<string, unknown>).kind;
  if (kind === 'fork') {
    const o = record(value, ['kind', 'entryId', 'position']);
    if (o.position !== 'before' && o.position !== 'at') fail('request.position must be "before" or "at"');
    return { kind: 'fork', entryId: entryId(o.entryId, 'request.entryId'), position: o.position };
  }
  if (kind === 'clone') {
    const o = record(value, ['kind', 'leafId']);
    const leaf = optionalLeaf(o.leafId);
    return leaf === undefined ? { kind: 'clone' } : { kind: 'clone', leafId: leaf };
  }
  return fail('request.kind must be "fork" or "clone"');
}

function forkArgs(v: unknown): Args<'session.fork'> {
  const o = record(v, ['sessionId', 'request', 'profile']);
  const out: Args<'session.fork'> = { sessionId: id(o.sessionId, 'sessionId'), request: forkRequest(o.request) };
  const p = profile(o.profile);
  if (p) out.profile = p;
  return out;
}

/** A session read at a leaf: session.open and session.context take the same arguments. */
function sessionAtArgs(v: unknown): Args<'session.open'> & Args<'session.context'> {
  const o = record(v, ['sessionId', 'profile', 'leafId']);
  const out: Args<'session.open'> & Args<'session.context'> = { sessionId: id(o.sessionId, 'sessionId') };
  const p = profile(o.profile);
  if (p) out.profile = p;
  const leaf = optionalLeaf(o.leafId);
  if (leaf !== undefined) out.leafId = leaf;
  return out;
}

/** A whole number of bytes from `min` up. */
function count(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    fail(`${name} must be an integer of at least ${min}`);
  return value;
}

/** A background pass's answer so far; `refresh` starts it again. */
function refreshArgs(v: unknown): { refresh?: boolean } {
  const o = record(v, ['refresh']);
  if (o.refresh !== undefined && typeof o.refresh !== 'boolean') fail('refresh must be a boolean');
  return o.refresh === true ? { refresh: true } : {};
}

function sessionIdArgs(v: unknown): { sessionId: string } {
  const o = record(v, ['sessionId']);
  return { sessionId: id(o.sessionId, 'sessionId') };
}

export const validators: { [C in Channel]: Validator<Args<C>> } = {
  'app.info': (v) => {
    record(v, []);
    return {};
  },
  'sessions.list': (v) => {
    const o = record(v, ['refresh']);
    if (o.refresh !== undefined && typeof o.refresh !== 'boolean') fail('refresh must be a boolean');
    return o.refresh === undefined ? {} : { refresh: o.refresh as boolean };
  },
  'sessions.summaries': (v) => {
    const o = record(v, ['sessionIds']);
    if (!Array.isArray(o.sessionIds) || o.sessionIds.length > MAX_IDS)
      fail(`sessionIds must be an array of at most ${MAX_IDS} ids`);
    return { sessionIds: o.sessionIds.map((x) => id(x, 'sessionIds[]')) };
  },
  'session.open': sessionAtArgs,
  'session.previews': (v) => {
    const o = record(v, ['sessionId', 'entryIds']);
    if (!Array.isArray(o.entryIds) || o.entryIds.length > MAX_IDS)
      fail(`entryIds must be an array of at most ${MAX_IDS} ids`);
    return { sessionId: id(o.sessionId, 'sessionId'), entryIds: o.entryIds.map((x) => entryId(x, 'entryIds[]')) };
  },
  'session.flags': sessionIdArgs,
  'entry.get': (v) => {
    const o = record(v, ['sessionId', 'entryId']);
    return { sessionId: id(o.sessionId, 'sessionId'), entryId: entryId(o.entryId, 'entryId') };
  },
  'entry.payload': (v) => {
    const o = record(v, ['sessionId', 'entryId', 'payloadId', 'offset', 'length']);
    // eslint-disable-next-line no-control-regex
    if (typeof o.payloadId !== 'string' || o.payloadId.length > MAX_PATH || /[\u0000-\u001f]/.test(o.payloadId))
      fail('payloadId must be a JSON pointer string');
    const out: Args<'entry.payload'> = {
      sessionId: id(o.sessionId, 'sessionId'),
      entryId: entryId(o.entryId, 'entryId'),
      payloadId: o.payloadId,
    };
    if (o.offset !== undefined) out.offset = count(o.offset, 'offset', 0);
    if (o.length !== undefined) out.length = count(o.length, 'length', 1);
    return out;
  },
  'session.context': sessionAtArgs,
  'session.forkPreview': forkArgs,
  'session.fork': forkArgs,
  'session.lineage': sessionIdArgs,
  'session.cancelOpen': sessionIdArgs,
  'search.query': (v) => {
    const o = record(v, ['query', 'limit', 'cursor']);
    if (typeof o.query !== 'string' || o.query.length > MAX_QUERY)
      fail(`query must be a string of at most ${MAX_QUERY} characters`);
    if (o.cursor !== undefined && (typeof o.cursor !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(o.cursor)))
      fail('cursor must be the cursor string of a previous search.query answer');
    const cursor = o.cursor === undefined ? {} : { cursor: o.cursor as string };
    if (o.limit === undefined) return { query: o.query, ...cursor };
    if (typeof o.limit !== 'number' || !Number.isInteger(o.limit) || o.limit < 1 || o.limit > MAX_IDS)
      fail(`limit must be an integer from 1 to ${MAX_IDS}`);
    return { query: o.query, limit: o.limit, ...cursor };
  },
  'search.status': (v) => {
    record(v, []);
    return {};
  },
  'session.upload': (v) => {
    const o = record(v, ['name', 'text']);
    if (typeof o.name !== 'string' || o.name.length > MAX_ID)
      fail(`name must be a string of at most ${MAX_ID} characters`);
    if (typeof o.text !== 'string' || o.text.length > MAX_UPLOAD_CHARS)
      fail('text must be a string of at most 256 MiB');
    return { name: o.name, text: o.text };
  },
  'session.openDialog': (v) => {
    record(v, []);
    return {};
  },
  'session.find': (v) => {
    const o = record(v, ['idOrPath']);
    if (
      typeof o.idOrPath !== 'string' ||
      !o.idOrPath ||
      o.idOrPath.length > MAX_PATH ||
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f]/.test(o.idOrPath)
    ) {
      fail('idOrPath must be a non-empty string without control characters');
    }
    return { idOrPath: o.idOrPath };
  },
  'secrets.status': noArgs,
  'secrets.counts': noArgs,
  'secrets.session': sessionIdArgs,
  'secrets.reveal': (v) => {
    const o = record(v, ['sessionId', 'index']);
    return { sessionId: id(o.sessionId, 'sessionId'), index: count(o.index, 'index', 0) };
  },
  'export.preview': exportArgs,
  'export.write': exportArgs,
  'export.ledger': noArgs,
  'redactions.get': noArgs,
  'redactions.set': (v) => {
    const o = record(v, ['literals', 'regexes']);
    return { literals: shortStrings(o.literals, 'literals'), regexes: shortStrings(o.regexes, 'regexes') };
  },
  'store.report': refreshArgs,
  'store.slimPreview': slimArgs,
  'store.slim': slimArgs,
  'store.archivePreview': (v) => {
    const o = record(v, ['staleDays']);
    return { staleDays: count(o.staleDays, 'staleDays', 1) };
  },
  'store.archive': (v) => {
    const o = record(v, ['staleDays', 'familyIds']);
    if (!Array.isArray(o.familyIds) || o.familyIds.length === 0 || o.familyIds.length > MAX_IDS)
      fail(`familyIds must be a list of 1 to ${MAX_IDS} ids`);
    return { staleDays: count(o.staleDays, 'staleDays', 1), familyIds: o.familyIds.map((x) => id(x, 'familyIds[]')) };
  },
  'keep.get': noArgs,
  'keep.set': (v) => {
    const o = record(v, ['sessionId', 'patch']);
    return { sessionId: id(o.sessionId, 'sessionId'), patch: keepPatch(o.patch) };
  },
  'trash.preview': familyArgs,
  'trash.move': familyArgs,
  'trash.list': noArgs,
  'trash.restore': (v) => ({ id: id(record(v, ['id']).id, 'id') }),
  'session.continue': (v) => {
    const o = record(v, ['sessionId', 'fork']);
    if (o.fork !== undefined && typeof o.fork !== 'boolean') fail('fork must be a boolean');
    return { sessionId: id(o.sessionId, 'sessionId'), ...(o.fork === true ? { fork: true } : {}) };
  },
  'session.compare': (v) => {
    const o = record(v, ['a', 'b', 'profile']);
    const side = (value: unknown, name: string) => {
      const s = record(value, ['sessionId', 'leafId']);
      const out: { sessionId: string; leafId?: string } = { sessionId: id(s.sessionId, `${name}.sessionId`) };
      if (s.leafId !== undefined) out.leafId = id(s.leafId, `${name}.leafId`);
      return out;
    };
    const p = profile(o.profile);
    return { a: side(o.a, 'a'), b: side(o.b, 'b'), ...(p ? { profile: p } : {}) };
  },
  'doctor.examine': sessionIdArgs,
  'doctor.repair': sessionIdArgs,
  'doctor.store': refreshArgs,
  'pi.handback': (v) => {
    const o = record(v, ['sessionId', 'send']);
    if (typeof o.send !== 'boolean') fail('send must be a boolean');
    return { sessionId: id(o.sessionId, 'sessionId'), send: o.send as boolean };
  },
};

// Secrets and exports (share-dto.ts).
function noArgs(v: unknown): Record<string, never> {
  record(v, []);
  return {};
}

const MAX_REDACTIONS = 200;

/** At most MAX_REDACTIONS non-empty strings of at most MAX_QUERY characters. */
function shortStrings(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.length > MAX_REDACTIONS)
    fail(`${name} must be an array of at most ${MAX_REDACTIONS} strings`);
  return value.map((s) => {
    if (typeof s !== 'string' || s.length === 0 || s.length > MAX_QUERY)
      fail(`${name}[] must be non-empty strings of at most ${MAX_QUERY} characters`);
    return s;
  });
}

function exportArgs(v: unknown): ExportRequestDto {
  const o = record(v, ['sessionId', 'format', 'leafId', 'all', 'redact']);
  if (o.format !== 'html' && o.format !== 'md' && o.format !== 'jsonl') fail('format must be "html", "md" or "jsonl"');
  if (typeof o.redact !== 'boolean') fail('redact must be a boolean');
  if (o.all !== undefined && typeof o.all !== 'boolean') fail('all must be a boolean');
  const out: ExportRequestDto = { sessionId: id(o.sessionId, 'sessionId'), format: o.format, redact: o.redact };
  if (o.leafId !== undefined) out.leafId = id(o.leafId, 'leafId');
  if (o.all === true) {
    if (out.leafId !== undefined) fail('leafId and all exclude each other');
    out.all = true;
  }
  return out;
}

/** A keep.set patch: each field optional; strings bounded (the keep wing trims and clips further). */
function keepPatch(v: unknown): KeepPatchDto {
  const o = record(v, ['name', 'tags', 'pinned', 'note']);
  const text = (value: unknown, name: string, max: number): string | null => {
    if (value === null) return null;
    if (typeof value !== 'string' || value.length > max) fail(`${name} must be a string of at most ${max} characters`);
    return value;
  };
  const out: KeepPatchDto = {};
  if (o.name !== undefined) out.name = text(o.name, 'name', MAX_ID);
  if (o.note !== undefined) out.note = text(o.note, 'note', MAX_QUERY * 4);
  if (o.pinned !== undefined) {
    if (typeof o.pinned !== 'boolean') fail('pinned must be a boolean');
    out.pinned = o.pinned;
  }
  if (o.tags !== undefined) {
    if (!Array.isArray(o.tags) || o.tags.length > 50) fail('tags must be an array of at most 50 strings');
    out.tags = o.tags.map((t) => text(t, 'tags[]', 100) ?? fail('tags[] must be strings'));
  }
  return out;
}

function familyArgs(v: unknown): { sessionId: string; withForks: boolean } {
  const o = record(v, ['sessionId', 'withForks']);
  if (typeof o.withForks !== 'boolean') fail('withForks must be a boolean');
  return { sessionId: id(o.sessionId, 'sessionId'), withForks: o.withForks };
}

/**
 * Heavy lines in the inspector: entry.get answers a line over PAYLOAD_LINE_BYTES with its heavy
 * payloads cut (core's payload-cut) plus their sizes, and entry.payload reads one payload's bytes
 * back by a positioned read of only its range, a bounded slice per call.
 */
import {
  BodyError,
  contentPage,
  cutPayloads,
  findPayloads,
  isIndexedEntry,
  isPlainRecord,
  type Entry,
  type IndexedEntry,
  type Payload,
} from '../core';
import type { PayloadDto, PayloadPageDto } from '../shared/dto';
import { CanopyError } from '../shared/errors';
import { decodeBytes } from '../storage/line-scan';

/** Lines shorter than this are answered whole (no scan). */
export const PAYLOAD_LINE_BYTES = 256 * 1024;
/** Default and largest text page of entry.payload (bytes of the file). */
export const TEXT_PAGE_BYTES = 256 * 1024;
/** Largest image slice of entry.payload (base64 characters): IPC and HTTP answers stay bounded. */
export const IMAGE_PAGE_BYTES = 4 * 1024 * 1024;
/** Scanned lines kept per open session (their payload ranges only). */
const SCANS_KEPT = 32;

/** Reads bytes of the session's file (LiveSession.readBytes: a reused buffer). */
export type ReadBytes = (offset: number, length: number) => Buffer;

interface Scan {
  ref: Entry;
  /** The line's first byte in the file. */
  offset: number;
  payloads: Payload[];
}

/** The payload ranges of the lines last shown, by entry index; least recently used dropped first. */
export class PayloadScans {
  private readonly kept = new Map<number, Scan>();

  get(e: IndexedEntry): Scan | undefined {
    const hit = this.kept.get(e.i);
    if (!hit || hit.ref !== e) return undefined;
    this.kept.delete(e.i);
    this.kept.set(e.i, hit);
    return hit;
  }

  put(e: IndexedEntry, scan: Scan): void {
    this.kept.delete(e.i);
    this.kept.set(e.i, scan);
    for (const k of this.kept.keys()) {
      if (this.kept.size <= SCANS_KEPT) break;
      this.kept.delete(k);
    }
  }
}

/** Bytes of the file; a file that cannot be read any more is a BodyError (the store re-indexes it). */
function readOf(read: ReadBytes, e: IndexedEntry, offset: number, length: number): Buffer {
  try {
    return read(offset, length);
  } catch (err) {
    throw new BodyError(
      'body_unreadable',
      `cannot read line ${e.line}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The bytes of `e`'s line (a BodyError when the file cannot be read any more). */
export function lineBytes(read: ReadBytes, e: IndexedEntry): { offset: number; bytes: Buffer } {
  const { offset, length } = e.store.byteRange(e.i);
  return { offset, bytes: readOf(read, e, offset, length) };
}

function dtoOf(p: Payload, bytes: Uint8Array): PayloadDto {
  const keptChars =
    p.keptBytes > 0 ? contentPage(bytes, p.start, p.start + p.keptBytes, p.keptBytes, decodeBytes).text.length : 0;
  const dto: PayloadDto = {
    id: p.id,
    kind: p.kind,
    sizeBytes: p.sizeBytes,
    totalBytes: p.end - p.start,
    keptBytes: p.keptBytes,
    keptChars,
  };
  if (p.mimeType !== undefined) dto.mimeType = p.mimeType;
  return dto;
}

/**
 * What entry.get sends as an entry's body: `raw` as is for a short line, else its cut and the
 * payloads cut from it. The cut is checked against the envelope like any body (a BodyError makes
 * the store re-index the file).
 */
export function entryBody(
  read: ReadBytes,
  scans: PayloadScans,
  e: Entry,
): { raw: Record<string, unknown>; payloads?: PayloadDto[] } {
  if (!isIndexedEntry(e) || e.store.byteRange(e.i).length < PAYLOAD_LINE_BYTES) return { raw: e.raw };
  const { offset, bytes } = lineBytes(read, e);
  const payloads = findPayloads(bytes, 0, bytes.length, decodeBytes);
  if (!payloads || payloads.length === 0) return { raw: e.raw };
  let raw: unknown;
  try {
    raw = JSON.parse(cutPayloads(bytes, 0, bytes.length, payloads, decodeBytes));
  } catch {
    throw new BodyError('body_invalid', `line ${e.line} is not valid JSON any more (or never was)`);
  }
  // The id only: an entry kept despite a bad envelope has normalised fields (as EntryStore.body checks).
  if (!isPlainRecord(raw) || raw.id !== e.id)
    throw new BodyError('body_mismatch', `line ${e.line} no longer holds entry ${e.id}`);
  scans.put(e, { ref: e, offset, payloads });
  return { raw, payloads: payloads.map((p) => dtoOf(p, bytes)) };
}

export interface PayloadRequest {
  payloadId: string;
  offset?: number;
  length?: number;
}

/** A slice of one payload of `e` (entry.payload): only its bytes are read from the file. */
export function payloadPage(read: ReadBytes, scans: PayloadScans, e: Entry, req: PayloadRequest): PayloadPageDto {
  if (!isIndexedEntry(e)) throw new CanopyError('not_found', `entry ${e.id} has no cut payloads`);
  let scan = scans.get(e);
  if (!scan) {
    entryBody(read, scans, e);
    scan = scans.get(e);
  }
  const p = scan?.payloads.find((x) => x.id === req.payloadId);
  if (!scan || !p) throw new CanopyError('not_found', `entry ${e.id} has no payload ${req.payloadId}`);
  const total = p.end - p.start;
  const offset = req.offset ?? p.keptBytes;
  if (offset > total)
    throw new CanopyError('invalid_argument', `offset ${offset} is past the payload's ${total} bytes`);
  const max = p.kind === 'image' ? IMAGE_PAGE_BYTES : TEXT_PAGE_BYTES;
  const length = Math.min(req.length ?? max, max, total - offset);
  // The slice may end inside an escape: contentPage ends the page before it.
  const bytes = readOf(read, e, scan.offset + p.start + offset, length);
  let page: { text: string; next: number };
  try {
    page = contentPage(bytes, 0, length, length, decodeBytes);
  } catch {
    throw new CanopyError(
      'invalid_argument',
      `offset ${offset} does not start a character of payload ${req.payloadId}`,
    );
  }
  return { payloadId: p.id, offset, next: offset + page.next, totalBytes: total, text: page.text };
}

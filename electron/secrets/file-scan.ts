/**
 * Scans one session file for secrets from a byte offset on (an append is scanned alone), a line
 * at a time with image data cut out before parsing. Only complete lines are scanned: a last line
 * still being written is scanned once its newline is there. The file is only read.
 */
import { createHash } from 'node:crypto';
import { cutPayloads, findPayloads, isV1Header, lineId, PAYLOAD_IMAGE_MIN_BYTES } from '../core';
import { entryFindings } from './rules/scan';
import { type SecretFinding, type SecretMatcher } from './rules/types';
import { decodeBytes, scanLines } from '../storage/line-scan';
import { readRange } from '../storage/read';

/** Where a scan starts and what the lines before it decided. */
export interface ScanStart {
  from: number;
  line: number;
  /** A v1 file (no ids on disk: pi names entries by their line, as Canopy does). */
  v1: boolean;
  sessionId: string | null;
}

export interface FileScan extends ScanStart {
  findings: SecretFinding[];
  problems: Array<{ line: number; message: string }>;
  ino: number;
  size: number;
  mtimeMs: number;
  /**
   * SHA-256 (hex) of the last bytes before `from`, to notice a file rewritten in place: a hash,
   * never the bytes (they may be a secret's end, and this lands in the cache).
   */
  tail: string;
  /** How many bytes `tail` hashes. */
  tailBytes: number;
}

export const TAIL_BYTES = 64;

export const tailHash = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const SCAN_CHUNK = 64 * 1024;
const CR = 0x0d;
const IMAGES_ONLY = { textMinBytes: Number.POSITIVE_INFINITY };

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function lineText(b: Buffer, s: number, e: number): string {
  if (e - s < PAYLOAD_IMAGE_MIN_BYTES) return decodeBytes(b, s, e, false);
  const images = findPayloads(b, s, e, decodeBytes, IMAGES_ONLY);
  return images && images.length > 0 ? cutPayloads(b, s, e, images, decodeBytes) : decodeBytes(b, s, e, false);
}

export async function scanFileSecrets(
  path: string,
  start: ScanStart,
  matchers: readonly SecretMatcher[],
  opts: { signal?: AbortSignal; pause?: () => Promise<void> | null } = {},
): Promise<FileScan> {
  const findings: SecretFinding[] = [];
  const problems: FileScan['problems'] = [];
  let { v1, sessionId } = start;
  const visit = (b: Buffer, s: number, e: number, line: number, _offset: number, complete: boolean): void => {
    if (!complete) return;
    const text = lineText(b, s, e > s && b[e - 1] === CR ? e - 1 : e);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      problems.push({ line, message: 'not valid JSON: not scanned' });
      return;
    }
    if (!isRecord(value)) return;
    if (value.type === 'session') {
      if (line === 1) {
        v1 = isV1Header(value);
        sessionId = typeof value.id === 'string' ? value.id : null;
      }
      return;
    }
    const id = v1 ? lineId(line) : typeof value.id === 'string' ? value.id : '';
    findings.push(...entryFindings({ id, line, raw: value }, matchers));
  };
  const result = await scanLines(path, visit, {
    // Scanning costs ~0.5 ms per KiB: small chunks give the event loop a turn every few tens of ms.
    chunkSize: SCAN_CHUNK,
    fromOffset: start.from,
    firstLine: start.line,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.pause ? { pause: opts.pause } : {}),
  });
  const tailFrom = Math.max(0, result.endOffset - TAIL_BYTES);
  const tail = result.endOffset > 0 ? await readRange(path, tailFrom, result.endOffset - tailFrom) : Buffer.alloc(0);
  return {
    from: result.endOffset,
    line: result.nextLine,
    v1,
    sessionId,
    findings,
    problems,
    ino: result.ino,
    size: result.size,
    mtimeMs: result.mtimeMs,
    tail: tailHash(tail),
    tailBytes: tail.length,
  };
}

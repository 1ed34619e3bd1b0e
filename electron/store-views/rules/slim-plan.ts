/**
 * What a slim copy writes for one line: the line's bytes with its image blocks replaced by text
 * blocks that name what was removed, and (with a limit) tool / bash outputs cut to their head with a
 * note; every other byte as it was. PURE (bytes in, byte pieces out: no string of the whole line).
 */
import { contentCut, type Decode } from '../../core';
import { base64Bytes, scanLineBlocks } from './block-scan';

export interface SlimOptions {
  dropImages: boolean;
  /** Outputs longer than this many bytes (as stored) keep this many; undefined: outputs stay. */
  maxOutputBytes?: number;
}

export interface SlimLine {
  /** The new line's bytes (no newline), in order; subarrays of the input where nothing changed. */
  pieces: Uint8Array[];
  imagesRemoved: number;
  outputsCut: number;
}

/** 1.2 MiB, 340 KiB, 12 B. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (ch) => ch.charCodeAt(0) & 0x7f);

/** The text block that stands for a removed image (JSON, ASCII). */
export function imageNote(mimeType: string | undefined, bytes: number, line: number): string {
  const mime = (mimeType ?? 'image').replace(/[^\w.+/-]/g, '?');
  return `[image removed by canopy slim: ${mime}, ${sizeText(bytes)}, source line ${line}]`;
}

/** What follows the kept head of a cut output (JSON string content, ASCII). */
export function outputNote(removedBytes: number, max: number, line: number): string {
  return `\\n[... ${sizeText(removedBytes)} of output removed by canopy slim (--max-output ${max}), source line ${line}]`;
}

interface Edit {
  start: number;
  end: number;
  with: Uint8Array;
}

/**
 * The slim form of the JSON line b[start, end) (physical line `line`); null when nothing changes
 * (no image, no long output, or a line that is not JSON: such a line is copied as it is).
 */
export function slimLine(
  b: Uint8Array,
  start: number,
  end: number,
  line: number,
  opts: SlimOptions,
  decode: Decode,
): SlimLine | null {
  const blocks = scanLineBlocks(b, start, end, decode);
  if (!blocks) return null;
  const edits: Edit[] = [];
  let imagesRemoved = 0;
  let outputsCut = 0;
  if (opts.dropImages) {
    for (const img of blocks.images) {
      const note = imageNote(img.mimeType, base64Bytes(img.dataEnd - img.dataStart), line);
      edits.push({ start: img.objStart, end: img.objEnd, with: ascii(JSON.stringify({ type: 'text', text: note })) });
      imagesRemoved++;
    }
  }
  const max = opts.maxOutputBytes;
  if (max !== undefined) {
    for (const o of blocks.outputs) {
      if (o.end - o.start <= max) continue;
      const keep = contentCut(b, o.start, o.end, max);
      edits.push({ start: keep, end: o.end, with: ascii(outputNote(o.end - keep, max, line)) });
      outputsCut++;
    }
  }
  if (edits.length === 0) return null;
  edits.sort((x, y) => x.start - y.start);
  const pieces: Uint8Array[] = [];
  let from = start;
  for (const e of edits) {
    pieces.push(b.subarray(from, e.start), e.with);
    from = e.end;
  }
  pieces.push(b.subarray(from, end));
  return { pieces, imagesRemoved, outputsCut };
}

/**
 * The slim copy's header: the source's header with a new id and time, and `parentSession` naming the
 * source (as a fork's). Throws when the line is no format-3 session header.
 */
export function slimHeader(headerText: string, sourcePath: string, id: string, timestamp: string): string {
  let h: unknown;
  try {
    h = JSON.parse(headerText);
  } catch {
    throw new Error('line 1 is not JSON (not a session file)');
  }
  if (typeof h !== 'object' || h === null || (h as { type?: unknown }).type !== 'session') {
    throw new Error('line 1 is not a session header');
  }
  if ((h as { version?: unknown }).version !== 3) {
    throw new Error('not a format-3 session: open it in pi once (pi migrates older files) and slim that');
  }
  return JSON.stringify({ ...(h as object), id, timestamp, parentSession: sourcePath });
}

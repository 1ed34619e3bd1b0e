/** A line's searchable JSON text (image data cut out: never searched; a screenshot is megabytes of base64 to parse), and its tool names as stored. */
import { cutPayloads, findPayloads, PAYLOAD_IMAGE_MIN_BYTES } from '../core';
import { decodeBytes } from '../storage/line-scan';

/** Images only: every text is searchable, however long. */
const IMAGES_ONLY = { textMinBytes: Number.POSITIVE_INFINITY };

export function lineText(b: Buffer, s: number, e: number): string {
  // A line shorter than the smallest image payload holds none: no scan.
  if (e - s < PAYLOAD_IMAGE_MIN_BYTES) return decodeBytes(b, s, e, false);
  const images = findPayloads(b, s, e, decodeBytes, IMAGES_ONLY);
  return images && images.length > 0 ? cutPayloads(b, s, e, images, decodeBytes) : decodeBytes(b, s, e, false);
}

/**
 * An entry's tool names as the index stores them (lowercase, space-delimited on both ends, '' for
 * none), so `tool:` finds a whole name with ` name ` in the index's SQL and in the byte stage alike.
 */
export function toolNamesText(tools: readonly string[]): string {
  return tools.length ? ` ${tools.join(' ').toLowerCase()} ` : '';
}

/** A line's searchable JSON text: image data cut out (never searched; a screenshot is megabytes of base64 to parse). */
import { cutPayloads, findPayloads, PAYLOAD_IMAGE_MIN_BYTES } from '../../core';
import { decodeBytes } from '../../storage/line-scan';

/** Images only: every text is searchable, however long. */
const IMAGES_ONLY = { textMinBytes: Number.POSITIVE_INFINITY };

export function lineText(b: Buffer, s: number, e: number): string {
  // A line shorter than the smallest image payload holds none: no scan.
  if (e - s < PAYLOAD_IMAGE_MIN_BYTES) return decodeBytes(b, s, e, false);
  const images = findPayloads(b, s, e, decodeBytes, IMAGES_ONLY);
  return images && images.length > 0 ? cutPayloads(b, s, e, images, decodeBytes) : decodeBytes(b, s, e, false);
}

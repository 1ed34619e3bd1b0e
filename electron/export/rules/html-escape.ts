/** Text into HTML: every session string goes through here, never inserted as markup. PURE. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Raster image types a data: URL may carry in an export (no SVG: it can hold markup). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A data: URL for an image block, or null when its type or data is not a plain raster image. */
export function imageDataUrl(mimeType: string, data: string): string | null {
  if (!IMAGE_TYPES.has(mimeType) || data.length === 0 || !BASE64.test(data)) return null;
  return `data:${mimeType};base64,${data}`;
}

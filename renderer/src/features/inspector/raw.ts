/** Narrowing helpers for the untyped entry JSON (`EntryDetailDto.raw`). */
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);

/** Image types the inspector will turn into a data: URL. SVG is not among them (it can script). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function imageDataUrl(block: Obj): string | null {
  const mime = str(block.mimeType)?.toLowerCase();
  const data = str(block.data);
  if (!mime || !IMAGE_TYPES.has(mime) || !data) return null;
  const compact = data.replace(/\s+/g, '');
  if (compact.length % 4 === 1 || !BASE64.test(compact)) return null;
  return `data:${mime};base64,${compact}`;
}

/** Message content as blocks: a plain string becomes one text block. */
export function contentBlocks(content: unknown): Obj[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return arr(content).filter(isObj);
}

export function textOf(content: unknown): string {
  return contentBlocks(content)
    .filter((b) => b.type === 'text')
    .map((b) => str(b.text) ?? '')
    .join('\n');
}

/**
 * Which pi wrote a file, as far as the file says it: the header's format version and the kind of
 * its session id, and entry kinds only newer pi write. PURE.
 */
import type { Part } from './source';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** One sentence per fact the file gives about the pi versions that wrote it. */
export function writerEvidence(part: Part): string[] {
  const h = part.header.value;
  const out: string[] = [];
  const v = h.version;
  if (v === undefined) out.push('header without a version: format 1, written by pi ≤ 0.30');
  else if (v === 2) out.push('header version 2: written by pi 0.31–0.34');
  else if (typeof v === 'number' && v >= 3) out.push(`header version ${v}: written by pi 0.35 or later`);
  const id = typeof h.id === 'string' ? h.id : '';
  if (UUID_V7.test(id)) out.push('session id is a UUIDv7: started by pi 0.67.2 or later');
  else if (UUID_V4.test(id)) out.push('session id is a random UUID (v4): started by pi before 0.67.2');
  const types = new Set(part.entries.map((e) => e.value.type));
  const system = part.entries.some(
    (e) => e.value.type === 'message' && (e.value.message as { role?: unknown } | undefined)?.role === 'system',
  );
  if (types.has('context_edit')) out.push('it holds context edits: pi 0.87 or later wrote to it');
  else if (types.has('usage') || system)
    out.push('it holds usage entries or system messages: pi 0.86 or later wrote to it');
  return out;
}

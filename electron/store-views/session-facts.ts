/**
 * One session file read into the facts the store views need (core's FactReader per line), in one
 * streaming pass over its bytes (scanLines: no whole-file string, no string per image line).
 */
import { FactReader } from './rules/store-facts';
import { type SessionFacts } from './rules/store-families';
import { decodeBytes, scanLines, type ScanOptions } from '../storage/line-scan';

export async function readSessionFacts(
  path: string,
  opts: Pick<ScanOptions, 'signal' | 'pause'> & { blocks?: boolean } = {},
): Promise<SessionFacts> {
  const reader = new FactReader(decodeBytes, opts.blocks ?? true);
  const facts: SessionFacts = {
    path,
    header: { id: '', cwd: '', timestamp: '' },
    entries: [],
    otherBytes: 0,
    sizeBytes: 0,
    mtimeMs: 0,
  };
  let sawHeader = false;
  const result = await scanLines(
    path,
    (buf, start, end, line, _offset, complete) => {
      const bytes = end - start + (complete ? 1 : 0);
      facts.sizeBytes += bytes;
      if (end > start && buf[end - 1] === 0x0d) end--;
      if (!sawHeader) {
        if (end === start) {
          facts.otherBytes += bytes;
          return;
        }
        sawHeader = true;
        const h = reader.header(buf, start, end);
        if (h) {
          facts.header = h;
          facts.otherBytes += bytes;
          return;
        }
      }
      const e = end > start ? reader.entry(buf, start, end, bytes) : null;
      if (e) {
        e.line = line;
        facts.entries.push(e);
      } else facts.otherBytes += bytes;
    },
    { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.pause ? { pause: opts.pause } : {}) },
  );
  facts.mtimeMs = result.mtimeMs;
  return facts;
}

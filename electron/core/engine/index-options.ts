/**
 * What SessionIndexer is told (where bodies are read from, how lines are decoded and checked), and
 * its defaults: kept apart from the indexer, which is the engine's hot path.
 */
import type { BodyCacheOptions, LineSource } from './line-source';
import type { Decode, SkimKeys } from '../types';

export type { Decode };

export interface IndexerOptions {
  /** Where `raw` bodies are read from. */
  source: LineSource;
  /** Faster decoding (Node's Buffer); default TextDecoder. */
  decode?: Decode;
  /** Id source for v1 entries (passed to parseSession). */
  newId?: () => string;
  /**
   * 'fast' (default): pi-shaped lines are indexed from their envelope, the rest parsed.
   * 'parse': every line is checked while indexing as JSON.parse would check it (pi-shaped lines by
   * a validating byte scan, json-validate.ts; others skimmed, json-skim.ts, and parsed), so every
   * bad line is reported up front; bodies are still read again on demand.
   */
  verify?: 'fast' | 'parse';
  bodyCache?: BodyCacheOptions;
  /**
   * True when every byte of b[start, end) is below 0x80 (Node's buffer.isAscii, SIMD): a line over
   * LONG_LINE is then as many characters long as it has bytes, so a 4 MB screenshot line is not
   * decoded just to be counted. Without it such lines are decoded.
   */
  isAscii?: (b: Uint8Array, start: number, end: number) => boolean;
}

const utf8 = new TextDecoder();
/**
 * What verify 'parse' may leave out of a line: string values the envelope never comes from (the
 * index reads type, id, parentId, timestamp, targetId, message.role and a compaction's facts).
 */
export const UNREAD_STRINGS: SkimKeys = {
  prefix: [],
  keep: 0,
  drop: [
    'text',
    'content',
    'summary',
    'errorMessage',
    'command',
    'thinking',
    'thinkingSignature',
    'textSignature',
    'data',
    'output',
    'oldText',
    'newText',
    'diff',
    'partialJson',
  ],
};
export const defaultDecode: Decode = (b, start, end) => utf8.decode(b.subarray(start, end));

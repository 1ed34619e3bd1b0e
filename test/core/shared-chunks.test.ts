import { describe, expect, it } from 'vitest';
import { JsonLineValidator } from '../../electron/core/engine/json-validate';
import { lineSpans } from '../fixtures/line-spans';
import {
  AHEAD,
  CHUNK,
  ChunkWriter,
  copyingValidator,
  helpWith,
  sharedChunks,
  type SharedChunks,
} from '../../electron/core/engine/shared-chunks';

/** Lines of every kind, some long, some bad, some with CRLF; a few land across chunk edges. */
function file(lines: number): { bytes: Buffer; lines: { offset: number; length: number }[] } {
  const texts: string[] = [];
  for (let i = 0; i < lines; i++) {
    const long = i % 7 === 0 ? 'x'.repeat(50_000 + i) : `line ${i}`;
    let text = JSON.stringify({
      type: 'message',
      id: `e${i}`,
      parentId: null,
      message: { role: 'user', content: long },
    });
    if (i % 41 === 0) text = text.slice(0, -1); // cut short
    if (i % 53 === 0) text = text.replace('"parentId"', '"id"'); // a repeated key the index reads
    if (i % 67 === 0) text += '\r';
    texts.push(text);
  }
  return { bytes: Buffer.from(`${texts.join('\n')}\n`), lines: lineSpans(texts) };
}

const { bytes, lines } = file(700);
const validator = new JsonLineValidator();
const expected = lines.map((l) => validator.valid(bytes, l.offset, l.offset + l.length));

/** The helper's validator in this thread (the worker's copies into the SIMD module instead). */
function helperValidator(): ReturnType<typeof copyingValidator> {
  const memory = Buffer.alloc(CHUNK + 1);
  const v = new JsonLineValidator();
  return copyingValidator(memory, (s, e) => v.valid(memory, s, e));
}

interface Plan {
  /** Bytes read for chunk k (short reads happen; default CHUNK). */
  readLength?: (k: number) => number;
  /** Called after chunk k was published: the helper's turn. */
  afterReady?: (shared: SharedChunks, k: number) => void;
  /** Called after chunk k's lines were visited. */
  afterVisit?: (shared: SharedChunks, k: number) => void;
  stallMs?: number;
}

/**
 * A pass the way scanLines makes one: chunks read AHEAD before the one whose lines are visited,
 * each line visited with the chunk that holds its newline; the verdict asked for every line.
 */
function pass(plan: Plan): { verdicts: number[]; chunkOf: number[]; crosses: boolean[] } {
  const shared = sharedChunks();
  const writer = new ChunkWriter(shared, plan.stallMs);
  const starts: number[] = [];
  let position = 0;
  let read = 0;
  const readOne = (): boolean => {
    if (position >= bytes.length) return false;
    const slot = writer.slot(read, position);
    const n = Math.min(plan.readLength?.(read) ?? CHUNK, CHUNK, bytes.length - position);
    bytes.copy(slot, 1, position, position + n);
    starts[read] = position;
    writer.ready(read, n);
    plan.afterReady?.(shared, read);
    read++;
    position += n;
    return true;
  };
  const verdicts: number[] = [];
  const chunkOf: number[] = [];
  const crosses: boolean[] = [];
  let line = 0;
  for (let k = 0; ; k++) {
    while (read <= k + AHEAD && readOne());
    if (k >= read) break;
    const end = k + 1 < read ? starts[k + 1]! : position;
    for (; line < lines.length && lines[line]!.offset + lines[line]!.length < end; line++) {
      const l = lines[line]!;
      verdicts.push(writer.verdict(l.offset, l.length));
      chunkOf.push(k);
      crosses.push(l.offset < starts[k]!);
    }
    plan.afterVisit?.(shared, k);
  }
  writer.close();
  return { verdicts, chunkOf, crosses };
}

describe('chunks shared with a validating helper', () => {
  it('vouches for every line inside a chunk the helper took, exactly as the validator judges it', () => {
    expect(bytes.length).toBeGreaterThan(3 * CHUNK);
    const v = helperValidator();
    const { verdicts, crosses } = pass({ afterReady: (shared, k) => helpWith(shared, v, k) });
    let bad = 0;
    verdicts.forEach((got, i) => {
      if (crosses[i]) expect(got, `line ${i + 1} crosses a chunk edge`).toBe(-1);
      else {
        expect(got, `line ${i + 1}`).toBe(expected[i] ? 1 : 0);
        if (!expected[i]) bad++;
      }
    });
    expect(verdicts.filter((x) => x >= 0).length).toBeGreaterThan(600);
    expect(bad).toBeGreaterThan(20);
  });

  it('maps verdicts to the file when reads come back short', () => {
    const v = helperValidator();
    const { verdicts, crosses } = pass({
      readLength: (k) => [CHUNK, 300_001, 77, 1_000_003, 500_000][k % 5]!,
      afterReady: (shared, k) => helpWith(shared, v, k),
    });
    verdicts.forEach((got, i) => expect(got, `line ${i + 1}`).toBe(crosses[i] ? -1 : expected[i] ? 1 : 0));
  });

  it('leaves a chunk the helper had not taken to the reader, and the helper skips it then', () => {
    const v = helperValidator();
    const skipped: boolean[] = [];
    const { verdicts, chunkOf, crosses } = pass({
      // The helper takes odd chunks at once; even ones only after the reader has been there (too late).
      afterReady: (shared, k) => (k % 2 === 1 ? helpWith(shared, v, k) : undefined),
      afterVisit: (shared, k) => {
        if (k % 2 === 0) skipped.push(helpWith(shared, v, k) === null && !new ChunkWriter(shared).taken(k));
      },
    });
    expect(skipped.length).toBeGreaterThan(1);
    expect(skipped.every(Boolean)).toBe(true);
    verdicts.forEach((got, i) => {
      if (crosses[i] || chunkOf[i]! % 2 === 0) expect(got, `line ${i + 1}`).toBe(-1);
      else expect(got, `line ${i + 1}`).toBe(expected[i] ? 1 : 0);
    });
  });

  it('gives the helper up when it stalls mid-chunk, and then knows nothing', () => {
    // A helper that claimed chunk 1 and never finished: the reader waits stallMs once.
    const stuck = (shared: SharedChunks, k: number): void => {
      if (k !== 1) return;
      const never = {
        ...helperValidator(),
        load: () => {
          throw new Error('stalled');
        },
      };
      expect(() => helpWith(shared, never, 1)).toThrow('stalled');
    };
    const t0 = performance.now();
    const { verdicts } = pass({ afterReady: stuck, stallMs: 50 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    expect(verdicts.every((x) => x === -1)).toBe(true);
  });

  it('knows nothing once closed', () => {
    const shared = sharedChunks();
    const writer = new ChunkWriter(shared);
    writer.close();
    const slot = writer.slot(0, 0);
    bytes.copy(slot, 1, 0, CHUNK);
    writer.ready(0, CHUNK);
    expect(helpWith(shared, helperValidator(), 0)).not.toBeNull(); // never published
    expect(lines.slice(0, 5).every((l) => writer.verdict(l.offset, l.length) === -1)).toBe(true);
  });
});

/**
 * Lines over 1 MiB (screenshots) get their line_too_long issue from the byte length when the
 * storage layer says they are ASCII, instead of decoding them: the same issues either way.
 */
import { describe, expect, it } from 'vitest';
import { isAsciiBytes } from '../../electron/storage/line-scan';
import { assistant, header, indexText, jsonl, message, user } from './helpers';

const MiB = 1024 * 1024;
const shot = (id: string, parentId: string | null, chars: number) =>
  message(id, parentId, {
    role: 'user',
    content: [{ type: 'image', data: 'A'.repeat(chars), mimeType: 'image/png' }],
    timestamp: 1,
  });

describe('long lines in the index pass', () => {
  it.each([
    ['an ASCII line over 1 MiB', [user('a', null), shot('b', 'a', MiB + 10), assistant('c', 'b')]],
    [
      'a line over 1 MiB of bytes but under 1 Mi characters (no issue)',
      [user('a', null, 'é'.repeat(600_000)), assistant('c', 'a')],
    ],
    ['a non-ASCII line over 1 Mi characters', [user('a', null, 'é'.repeat(MiB + 5)), assistant('c', 'a')]],
  ])('%s: the same issues with and without the ASCII check', (_name, entries) => {
    const text = jsonl([header(), ...entries]);
    let checked = 0;
    const isAscii = (b: Uint8Array, start: number, end: number) => {
      checked++;
      return isAsciiBytes(b, start, end);
    };
    const plain = indexText(text).result().issues;
    const fast = indexText(text, { isAscii }).result().issues;
    expect(fast).toEqual(plain);
    expect(checked).toBe(1);
  });

  it('reports an ASCII long line by its length', () => {
    const issues = indexText(jsonl([header(), shot('b', null, MiB + 10)]), { isAscii: isAsciiBytes }).result().issues;
    expect(issues.map((i) => i.kind)).toEqual(['line_too_long']);
    expect(issues[0]!.message).toMatch(/^line 2 is 10\d{5} characters long$/);
  });

  it('isAsciiBytes looks at the range only', () => {
    const b = Buffer.from('aé b');
    expect(isAsciiBytes(b, 0, 1)).toBe(true);
    expect(isAsciiBytes(b, 0, 3)).toBe(false);
    expect(isAsciiBytes(b, 3, 5)).toBe(true);
  });
});

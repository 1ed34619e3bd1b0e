/** The streamed upload decoder gives the text JSON.parse would, whatever the chunking; bad bodies are refused. */
import { describe, expect, it } from 'vitest';
import { UploadBodyError, UploadDecoder } from '../../electron/ipc/upload-body';

function decode(body: string, chunk: number): { name: string | null; text: string } {
  const d = new UploadDecoder(1 << 30);
  const bytes = Buffer.from(body);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(Buffer.from(d.write(bytes.subarray(i, i + chunk))));
  d.end();
  return { name: d.name, text: Buffer.concat(parts).toString('utf8') };
}

describe('UploadDecoder', () => {
  const text = '{"type":"session","id":"a\\"b"}\n\u00e9\u2026\ud83c\udf33 \t\\/\b\f\r\u0001 lone \ud800 x \udc00\n';
  const body = JSON.stringify({ text, name: 'f\u00e9.jsonl' });

  it.each([1, 2, 3, 7, 64, 100_000])('equals JSON.parse then a UTF-8 write, in chunks of %i bytes', (chunk) => {
    const parsed = JSON.parse(body) as { name: string; text: string };
    expect(decode(body, chunk)).toEqual({ name: parsed.name, text: Buffer.from(parsed.text).toString('utf8') });
  });

  it.each([
    ['[]', 400],
    ['{"name":"a","text":5}', 400],
    ['{"name":"a","text":"x","path":"/etc"}', 400],
    ['{"name":"a"}', 400],
    ['{"name":"a","text":"x"', 400],
    ['{"name":"a","text":"x"} x', 400],
  ])('refuses %s', (bad, status) => {
    expect(() => decode(bad, 3)).toThrow(UploadBodyError);
    try {
      decode(bad, 3);
    } catch (err) {
      expect((err as UploadBodyError).status).toBe(status);
    }
  });

  it('refuses a body over its cap with 413', () => {
    const d = new UploadDecoder(10);
    expect(() => d.write(Buffer.from('{"name":"a","text":"0123456789"}'))).toThrow(/over 10 bytes/);
  });
});

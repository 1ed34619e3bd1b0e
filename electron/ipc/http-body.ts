/**
 * Answer bodies of `canopy serve`: JSON as all-ASCII bytes (repo/encoded-json.ts), compressed for
 * clients that accept it (Brotli at quality 1 first: Chromium offers `br` on http://127.0.0.1;
 * docs/benchmarks.md has the timings).
 */
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

export type BodyEncoding = 'br' | 'gzip';

/** The weight a client gives each content coding (RFC 9110 §12.5.3); a malformed weight counts as 0. */
function weights(accepted: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of accepted.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const p of params) {
      const [key = '', val = ''] = p.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      q = /^\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.test(val) ? Number(val) : 0;
    }
    out.set(coding, q);
  }
  return out;
}

/** The coding to send a body in for this Accept-Encoding header: br before gzip at equal weight; null = as is. */
export function pickEncoding(accepted: string | string[] | undefined): BodyEncoding | null {
  if (typeof accepted !== 'string') return null;
  const q = weights(accepted);
  const of = (coding: string) => q.get(coding) ?? q.get('*') ?? 0;
  const br = of('br');
  const gzip = of('gzip');
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

const GZIP = { level: zlib.Z_BEST_SPEED, memLevel: 9 };
const brotliOf = (body: string | Buffer) => ({
  params: { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) },
});

/** The body (a string: its UTF-8) compressed at the fastest setting: most of the size gain for little time. */
export function compress(body: string | Buffer, encoding: BodyEncoding): Buffer {
  if (encoding === 'gzip') return gzipSync(body, GZIP);
  return brotliCompressSync(body, brotliOf(body));
}

/** The same on libuv's thread pool: a big body (a 100 MB context) would hold the serving loop a second or more. */
export function compressOffLoop(body: Buffer, encoding: BodyEncoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (encoding === 'gzip') gzip(body, GZIP, done);
    else brotliCompress(body, brotliOf(body), done);
  });
}

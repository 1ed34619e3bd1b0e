/**
 * The whole-store rows of `npm run bench -- --only store` (issue 24): usage and storage over a
 * generated store against the index's own pass over the same files, and slim of an image-heavy
 * session against a plain copy (`--only store-2g`: the 2.6 GiB one). Children: bench/child-store.ts.
 */
import { cachedSession } from './generate';

const MB = 1024 * 1024;

interface Measured {
  ok: boolean;
  ms?: number;
  rssMB?: number;
  [key: string]: unknown;
}

export interface StoreBenchTools {
  rows: string[][];
  log: (text: string) => void;
  /** Runs bench/child-store in a fresh process. */
  run: (argv: string[]) => Measured;
  repeat: (runs: number, measure: () => Measured) => Measured;
  fmtMs: (m: Measured | undefined) => string;
  fmtMB: (m: Measured | undefined) => string;
  ratio: (a: number | undefined, b: number | undefined, target?: string) => string;
  store: (sessions: number) => string;
  dirBytes: (root: string) => number;
}

export function storeRows(
  a: { quick: boolean; runs: number | null; dir: string; big: boolean; sessions?: number },
  t: StoreBenchTools,
): void {
  const { rows, log, run, repeat, fmtMs, fmtMB, ratio } = t;
  // The stores: --only store-10k (10,000 sessions) or store-3g (the ~2.7 GB search store).
  const sessions = a.sessions ?? (a.quick ? 1000 : 2000);
  const root = t.store(sessions);
  const mb = (t.dirBytes(root) / MB).toFixed(0);
  const runs = a.runs ?? 3;
  run(['index', root]);
  log(`bench: store: ${sessions} sessions (${mb} MB): the index's pass, usage, storage`);
  const pass = repeat(runs, () => run(['index', root]));
  const use = repeat(runs, () => run(['usage', root]));
  const disk = repeat(runs, () => run(['storage', root]));
  for (const [what, m] of [
    ['usage --by day,model', use],
    ['storage', disk],
  ] as const) {
    rows.push([
      `${what} over ${sessions} sessions (${mb} MB); baseline: the index's own pass over the same files`,
      fmtMs(m),
      fmtMB(m),
      '–',
      '–',
      fmtMs(pass),
      fmtMB(pass),
      '–',
      '–',
      ratio(m.ms, pass.ms, '≤ 1.5×'),
    ]);
  }
  const size = a.big ? Math.round(2.6 * 1024 * MB) : (a.quick ? 128 : 512) * MB;
  const label = a.big ? '2.6 GiB' : `${size / MB} MiB`;
  log(`bench: store: slim of a ${label} image-heavy session against a plain copy`);
  const { path } = cachedSession(a.dir, a.big ? 'session-2600mb-images' : `session-${size / MB}mb-images`, size, 26, {
    images: true,
  });
  run(['copy', path]);
  const plain = repeat(runs, () => run(['copy', path]));
  const slim = repeat(runs, () => run(['slim', path]));
  rows.push([
    `slim ${label} image-heavy session (${String(slim.imagesRemoved ?? '?')} images, ${((Number(slim.bytesAfter) || 0) / MB).toFixed(1)} MB left); baseline: a plain copy (1 MiB read/write, fsync)`,
    fmtMs(slim),
    fmtMB(slim),
    '–',
    '–',
    fmtMs(plain),
    fmtMB(plain),
    '–',
    '–',
    ratio(slim.ms, plain.ms, '≤ 2×'),
  ]);
}

/**
 * Realistic text for the search benchmarks: prose drawn from a large Zipf-distributed vocabulary,
 * mixed with identifiers, paths, numbers, code lines and error output, as a coding agent's session
 * holds. Deterministic by seed. A search over text drawn from a few dozen words measures nothing
 * real: every phrase's trigrams are then in a tenth of all entries.
 */
import type { Rng } from '../test/fixtures/corpus/rng';

const ONSETS = [
  '',
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'j',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'w',
  'z',
  'br',
  'ch',
  'cl',
  'dr',
  'fl',
  'gr',
  'pl',
  'pr',
  'sh',
  'sl',
  'sp',
  'st',
  'str',
  'th',
  'tr',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ee', 'io', 'ou', 'oa', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'ck', 'nd', 'ng', 'nt', 'rt', 'st', 'x'];
// The most frequent ranks are real function words, as in English prose.
const COMMON = 'the of and to a in is it that for on with as this be are not or by at from but we can if you an'.split(
  ' ',
);
const EXTENSIONS = ['ts', 'tsx', 'js', 'json', 'md', 'py', 'rs', 'go', 'css', 'yaml', 'sh', 'txt', 'lock', 'toml'];
const ROOTS = ['src/', 'lib/', 'test/', './', '../', '/home/alice/work/', '/usr/local/lib/', 'packages/', '~/.config/'];
const NON_ASCII = ['ünïcödé', 'naïve', 'café', '“quotes”', '— dash', '🌳', 'Größe', '東京', 'résumé'];

/** A Zipf (Mandelbrot) sampler over ranks 0..n-1: P(r) ∝ 1 / (r + q)^s. */
function zipfSampler(n: number, s: number, q: number): (u: number) => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cdf[r] = total += 1 / Math.pow(r + q, s);
  return (u) => {
    const x = u * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const SYLLABLES: ReadonlyArray<readonly [number, number]> = [
  [1, 0.3],
  [2, 0.45],
  [3, 0.2],
  [4, 0.05],
];

/** `size` distinct words, shorter ones at the frequent ranks (as in real language). */
function vocabulary(rng: Rng, size: number): string[] {
  const seen = new Set<string>(COMMON);
  const words: string[] = [];
  while (words.length + COMMON.length < size) {
    let w = '';
    for (let s = rng.weighted(SYLLABLES); s > 0; s--) w += rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS);
    if (w.length < 2 || seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return [...COMMON, ...words.sort((a, b) => a.length - b.length)];
}

/** About `chars` characters of session-like text (prose, identifiers, paths, numbers, code). */
export function buildRealisticText(rng: Rng, chars: number, vocabularySize = 60_000): string {
  const words = vocabulary(rng, vocabularySize);
  const rank = zipfSampler(words.length, 1.07, 2.7);
  const word = (): string => words[rank(rng.next())]!;
  const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
  const ident = (): string => {
    const parts = [word(), word(), ...(rng.chance(0.4) ? [word()] : [])];
    const digits = rng.chance(0.15) ? String(rng.int(0, 99)) : '';
    switch (rng.int(0, 3)) {
      case 0:
        return parts[0] + parts.slice(1).map(cap).join('') + digits;
      case 1:
        return parts.join('_') + digits;
      case 2:
        return parts.map(cap).join('') + digits;
      default:
        return parts.join('-') + digits;
    }
  };
  const path = (): string => {
    let p = rng.pick(ROOTS);
    for (let d = rng.int(0, 3); d > 0; d--) p += `${rng.chance(0.5) ? word() : ident()}/`;
    return `${p}${rng.chance(0.5) ? word() : ident()}.${rng.pick(EXTENSIONS)}`;
  };
  const num = (): string => {
    switch (rng.int(0, 4)) {
      case 0:
        return String(rng.int(0, 100_000));
      case 1:
        return (rng.next() * 1000).toFixed(rng.int(1, 3));
      case 2:
        return `0x${rng.int(0, 0xffffff).toString(16)}`;
      case 3:
        return `${rng.int(0, 9)}.${rng.int(0, 30)}.${rng.int(0, 99)}`;
      default:
        return `${rng.int(1, 65_535)}`;
    }
  };
  const sentence = (): string => {
    const n = rng.int(5, 22);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = rng.next();
      let t =
        x < 0.86 ? word() : x < 0.93 ? `\`${ident()}\`` : x < 0.97 ? path() : x < 0.995 ? num() : rng.pick(NON_ASCII);
      if (i === 0) t = cap(t);
      if (i < n - 1 && rng.chance(0.06)) t += ',';
      out.push(t);
    }
    return `${out.join(' ')}${rng.pick(['.', '.', '.', '?', '!', ':'])}`;
  };
  const code = (): string => {
    switch (rng.int(0, 7)) {
      case 0:
        return `const ${ident()} = ${ident()}(${ident()}, ${num()});`;
      case 1:
        return `if (${ident()} === null) return ${ident()};`;
      case 2:
        return `import { ${cap(ident())} } from '${path()}';`;
      case 3:
        return `  ${ident()}.${ident()}("${word()} ${word()}");`;
      case 4:
        return `Error: ENOENT: no such file or directory, open '${path()}'`;
      case 5:
        return `    at ${cap(ident())}.${ident()} (${path()}:${rng.int(1, 900)}:${rng.int(1, 80)})`;
      case 6:
        return `$ npm run ${word()} -- --${ident()}=${num()}`;
      default:
        return `${path()}:${rng.int(1, 2000)}: ${word()} ${ident()} ${word()}`;
    }
  };
  const parts: string[] = [];
  let n = 0;
  while (n < chars) {
    const piece = rng.chance(0.22) ? code() : sentence();
    parts.push(piece);
    n += piece.length + 1;
    parts.push(rng.chance(0.25) ? '\n' : ' ');
  }
  return parts.join('').slice(0, chars);
}

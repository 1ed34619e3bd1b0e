/**
 * Seeded damage for the fuzz suite: a small pi-shaped session, one mutation of a chosen kind, and
 * the issues any correct reader must report for the result (worked out line by line with
 * JSON.parse, independently of Canopy's reader).
 */
import { Rng } from '../fixtures/corpus/rng';
import { assistant, branchedSession, entry, user } from '../repo/helpers';

export const MUTATIONS = [
  'byte_flip',
  'nul',
  'invalid_utf8',
  'bom',
  'crlf',
  'truncate',
  'delete_line',
  'duplicate_line',
  'blank_lines',
  'unescaped_quote',
  'deep_array_body',
  'deep_object_body',
  'deep_header',
  'colliding_ids',
  'cycle',
  'proto_keys',
  'huge_numbers',
  'huge_line',
  'nul_run',
  'long_ids',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** Runs per CI run: every kind this many times (CANOPY_FUZZ_RUNS raises it). huge_line runs once. */
export const RUNS_PER_KIND = Math.max(1, Number(process.env.CANOPY_FUZZ_RUNS ?? 6));
/** The size of the huge_line mutation's line (the issue's 50 MB). */
export const HUGE_LINE_BYTES = 50 * 1024 * 1024;
const DEEP = 100_000;

export interface Damaged {
  name: string;
  bytes: Buffer;
  /** Physical line → issue kinds of which the reader must report at least one. */
  expected: Map<number, string[]>;
}

const enc = (s: string): Buffer => Buffer.from(s, 'utf8');

/** helpers.ts's branched session (with a label and a name), a model change and one more turn: 12 lines. */
export function baseLines(sessionId: string): string[] {
  const lines: Record<string, unknown>[] = [
    ...branchedSession(sessionId, '/fuzz/project'),
    entry('model_change', 'm1', 'n1', { provider: 'anthropic', modelId: 'claude-test' }),
    user('u4', 'm1', 'last question with "quotes" and ünïcode'),
    assistant('a4', 'u4', 'last answer'),
  ];
  return lines.map((l) => JSON.stringify(l));
}

function withText(line: string, raw: string): string {
  // The first text value of the line becomes `raw`, written as it is (it may break the JSON).
  return line.replace(/"text":"(?:[^"\\]|\\.)*"/, `"text":${raw}`);
}

function mutateLines(kind: Mutation, rng: Rng, lines: string[]): Buffer {
  const k = rng.int(1, lines.length - 1); // an entry line (0 is the header)
  const join = (ls: string[], eol = '\n'): Buffer => enc(ls.join(eol) + eol);
  switch (kind) {
    case 'byte_flip': {
      const b = join(lines);
      for (let n = rng.int(1, 3); n > 0; n--) {
        const at = rng.int(0, b.length - 2);
        const flipped = b[at]! ^ (1 << rng.int(0, 7));
        // Never a new line break: the damage stays on its line.
        if (flipped !== 0x0a && flipped !== 0x0d && b[at] !== 0x0a) b[at] = flipped;
      }
      return b;
    }
    case 'nul': {
      const at = rng.int(1, lines[k]!.length - 1);
      lines[k] = `${lines[k]!.slice(0, at)}\u0000${lines[k]!.slice(at)}`;
      return join(lines);
    }
    case 'invalid_utf8': {
      const b = join(lines);
      const at = b.indexOf('first question') + rng.int(0, 5);
      return Buffer.concat([b.subarray(0, at), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]), b.subarray(at)]);
    }
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), join(lines)]);
    case 'crlf':
      return join(lines, '\r\n');
    case 'truncate': {
      const b = join(lines);
      return b.subarray(0, rng.int(1, b.length - 1));
    }
    case 'delete_line':
      lines.splice(k, 1);
      return join(lines);
    case 'duplicate_line':
      lines.splice(rng.int(k + 1, lines.length), 0, lines[k]!);
      return join(lines);
    case 'blank_lines':
      for (let n = rng.int(1, 4); n > 0; n--) lines.splice(rng.int(1, lines.length), 0, rng.pick(['', ' ', '\t']));
      return join(lines);
    case 'unescaped_quote':
      lines[k] = withText(lines[k]!, '"say "hi" twice"');
      if (!lines[k]!.includes('"hi"')) lines[k] = lines[k]!.replace(/"label":"/, '"label":"x"y');
      return join(lines);
    case 'deep_array_body':
      lines[k] = withText(lines[k]!, '['.repeat(DEEP) + ']'.repeat(DEEP)).replace(
        /"name":"[^"]*"/,
        `"name":${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
      );
      return join(lines);
    case 'deep_object_body':
      lines[k] = lines[k]!.replace(
        /,"timestamp":"([^"]*)"/,
        `,"timestamp":"$1","deep":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
      );
      return join(lines);
    case 'deep_header':
      lines[0] = lines[0]!.replace(/}$/, `,"metadata":${'{"a":['.repeat(DEEP / 2)}${']}'.repeat(DEEP / 2)}}`);
      return join(lines);
    case 'colliding_ids': {
      const other = JSON.parse(lines[rng.int(1, lines.length - 1)]!) as { id: string };
      lines[k] = lines[k]!.replace(/"id":"[^"]*"/, `"id":"${other.id}"`);
      return join(lines);
    }
    case 'cycle': {
      // u1 (the root) gets a descendant as its parent: every walk from a leaf loops.
      const descendant = (JSON.parse(lines[rng.int(2, lines.length - 1)]!) as { id: string }).id;
      lines[1] = lines[1]!.replace('"parentId":null', `"parentId":"${descendant}"`);
      return join(lines);
    }
    case 'proto_keys':
      lines[k] = lines[k]!.replace(/"id":"[^"]*"/, '"id":"__proto__"').replace(
        /}$/,
        ',"__proto__":{"polluted":true},"constructor":{"prototype":1}}',
      );
      lines.push(JSON.stringify(entry('label', 'l9', '__proto__', { targetId: '__proto__', label: '__proto__' })));
      return join(lines);
    case 'huge_numbers':
      lines[k] = lines[k]!.replace(/"timestamp":(\d+)/, '"timestamp":1e400').replace(
        /"input":1/,
        `"input":${'9'.repeat(400)}`,
      );
      lines.push(
        JSON.stringify(
          entry('message', 'x1', 'a4', { message: { role: 'user', content: 'n', timestamp: -1e308 } }),
        ).replace('-1e+308', '-1e999'),
      );
      return join(lines);
    case 'huge_line':
      lines[k] = withText(lines[k]!, `"${'x'.repeat(HUGE_LINE_BYTES)}"`);
      return join(lines);
    case 'nul_run': {
      // Crash damage: a hole of NUL bytes before line k (the writer's next line follows it on the same line).
      lines[k] = '\u0000'.repeat(rng.int(1, 200_000)) + lines[k]!;
      return join(lines);
    }
    case 'long_ids': {
      // Ids pi accepts: long, with control characters (escaped in the JSON), kept consistent with the children.
      const old = (JSON.parse(lines[k]!) as { id: string }).id;
      const long = JSON.stringify(`${old}-${'i'.repeat(rng.int(250, 600))}\u0001\u001b[0m`).slice(1, -1);
      return join(lines.map((l) => l.split(`"${old}"`).join(`"${long}"`)));
    }
  }
}

/** Lines of a damaged file that hold NUL bytes and are not JSON: each must also get a nul_bytes issue. */
export const NUL_LINES = new WeakMap<Buffer, number[]>();

/** What Canopy must report, line by line, found with JSON.parse (physical lines, blank ones counted). */
export function expectedIssues(bytes: Buffer): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const text = bytes.toString('utf8');
  const parts = text.split('\n');
  const complete = text.endsWith('\n');
  if (complete) parts.pop();
  parts.forEach((raw, i) => {
    const line = i + 1;
    let t = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === 1 && t.startsWith('\ufeff')) {
      out.set(1, ['byte_order_mark']);
      t = t.slice(1);
    }
    if (!t.trim()) return;
    try {
      const v: unknown = JSON.parse(t);
      if (t.length > 1024 * 1024) out.set(line, ['line_too_long']);
      if (/\[{1001}|(\{"a":){1001}|(\{"a":\[){501}/.test(t) && typeof v === 'object') out.set(line, ['too_deep']);
    } catch {
      const lastTorn = !complete && i === parts.length - 1;
      if (line > 1 || !out.has(1)) out.set(line, lastTorn ? ['torn_last_line', 'invalid_json'] : ['invalid_json']);
      // A NUL run is reported as what it is (besides the line not being JSON).
      if (t.includes('\u0000')) NUL_LINES.set(bytes, [...(NUL_LINES.get(bytes) ?? []), line]);
    }
  });
  return out;
}

/** The files of one fuzz run: RUNS_PER_KIND of each kind (one huge_line when `huge`), seeded. */
export function damagedFiles(seed: number, opts: { huge: boolean; kinds?: readonly Mutation[] }): Damaged[] {
  const root = new Rng(seed);
  const files: Damaged[] = [];
  for (const kind of opts.kinds ?? MUTATIONS) {
    const runs = kind === 'huge_line' ? (opts.huge ? 1 : 0) : RUNS_PER_KIND;
    for (let r = 0; r < runs; r++) {
      const rng = root.derive(`${kind}:${r}`);
      const id = `019c0000-0000-7000-8000-${String(files.length).padStart(12, '0')}`;
      const bytes = mutateLines(kind, rng, baseLines(id));
      files.push({ name: `${kind}-${r}.jsonl`, bytes, expected: expectedIssues(bytes) });
    }
  }
  return files;
}

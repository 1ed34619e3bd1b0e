/**
 * Pi-shaped session files for the benchmarks, written fast: a seeded PRNG picks slices of one
 * pre-built text blob, lines are assembled with pi's key order (type, id, parentId, timestamp,
 * payload; message objects start with `role`) and written through one reused buffer.
 *
 * Shapes follow pi-coding-agent 1.6.0 sessions of a long coding run: user prompts, assistant turns
 * with thinking and tool calls, tool results of very uneven size (a few huge reads and logs, rare
 * screenshots as base64 images), model/thinking changes, CA compactions about every 700 KB of
 * conversation, /tree branch moves with branch summaries, labels and a session name.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../test/fixtures/corpus/rng';
import { buildRealisticText } from './text-corpus';

/** The corpus's seeded PRNG (mulberry32, same stream) plus the size draw the bench needs. */
export class Prng extends Rng {
  /** Log-normal-ish size: median `median`, long tail, clamped. */
  size(median: number, spread: number, max: number): number {
    const u = Math.max(1e-9, this.next());
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(1, Math.min(max, Math.round(median * Math.exp(spread * z))));
  }
}

const WORDS = (
  'the parser reads each line and keeps issues with numbers so a tree node points at its parent cache entry test runs ' +
  'faster now function return const let await async import export from if else for while class interface type ' +
  'string number boolean null undefined error warning file path src lib index ts js json config build deploy'
).split(' ');
const CODE_BITS = [
  'const x = JSON.parse(line);',
  'if (err) {\n  throw new Error("bad input: " + path);\n}',
  '\tfor (let i = 0; i < n; i++) total += items[i];',
  'console.log(`done in ${ms} ms`);',
  '<div className="row">{label}</div>',
  'SELECT id, name FROM users WHERE id = $1;',
  'ünïcödé — “quotes” and emoji 🌳',
];

/** ~2 MiB of prose and code with quotes, backslashes, newlines and some non-ASCII. */
function buildBlob(rng: Prng): string {
  const parts: string[] = [];
  let n = 0;
  while (n < 2 * 1024 * 1024) {
    const piece = rng.chance(0.15) ? rng.pick(CODE_BITS) : rng.pick(WORDS);
    parts.push(piece);
    n += piece.length + 1;
    parts.push(rng.chance(0.08) ? '\n' : ' ');
  }
  return parts.join('');
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function buildBase64(rng: Prng, bytes: number): string {
  let out = '';
  const chunk: string[] = [];
  for (let i = 0; i < 4096; i++) chunk.push(B64[rng.int(0, 63)]!);
  const block = chunk.join('');
  while (out.length < bytes) out += block;
  return out.slice(0, bytes);
}

const MODELS = [
  { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' },
  { api: 'openai-responses', provider: 'openai', model: 'gpt-5' },
  { api: 'google-generative-ai', provider: 'google', model: 'gemini-2.5-pro' },
];
const TOOLS = ['read', 'bash', 'edit', 'write', 'grep', 'find', 'ls'];
const LEVELS = ['off', 'low', 'medium', 'high'];

export interface GenerateOptions {
  /** Stop once the file holds at least this many bytes. */
  targetBytes: number;
  seed?: number;
  cwd?: string;
  sessionId?: string;
  /** Multiply every body size by this (small sessions of a store use < 1). */
  scale?: number;
  /** Stop after this many entries instead (whichever comes first). */
  maxEntries?: number;
  /** Start time (ms). */
  startMs?: number;
  /**
   * Where text comes from: 'small' (default) = ~60 words, as the other benchmarks' cached files
   * were made; 'realistic' = a large Zipf vocabulary with identifiers, paths, numbers and code
   * (bench/text-corpus.ts), for search, whose cost depends on how selective the text is.
   */
  text?: 'small' | 'realistic';
  /**
   * Image-heavy (pi #9613: a 2.6 GB session, nearly all of it base64 screenshots): user prompts and
   * tool results carry screenshots of 200 KB–4 MB far more often.
   */
  images?: boolean;
}

export interface GeneratedInfo {
  bytes: number;
  entries: number;
  leafId: string;
}

/**
 * Writes one session file. Returns its size and entry count. The writer keeps a 16 MiB buffer and
 * flushes it with writeSync; strings are encoded straight into it.
 */
export function writeSessionFile(path: string, opts: GenerateOptions): GeneratedInfo {
  const rng = new Prng(opts.seed ?? 1);
  const blob = opts.text === 'realistic' ? sharedRealisticBlob() : sharedBlob();
  const base64 = sharedBase64();
  const scale = opts.scale ?? 1;
  const fd = openSync(path, 'w');
  // One buffer for every file (writing is synchronous).
  writeBuffer ??= Buffer.allocUnsafe(16 * 1024 * 1024);
  const buf = writeBuffer;
  let pos = 0;
  let bytes = 0;
  const flush = (): void => {
    let off = 0;
    while (off < pos) off += writeSync(fd, buf, off, pos - off);
    pos = 0;
  };
  const writeLine = (line: string): void => {
    const max = line.length * 3 + 1;
    if (pos + max > buf.length) flush();
    if (max > buf.length) {
      const b = Buffer.from(`${line}\n`, 'utf8');
      writeSync(fd, b);
      bytes += b.length;
      return;
    }
    const n = buf.write(line, pos, 'utf8');
    buf[pos + n] = 0x0a;
    pos += n + 1;
    bytes += n + 1;
  };

  let counter = 0;
  const idSalt = (opts.seed ?? 1) * 0x2545f491;
  // A bijection on 32 bits, so ids never repeat within a file.
  const newId = (): string => ((Math.imul(++counter, 0x9e3779b1) ^ idSalt) >>> 0).toString(16).padStart(8, '0');
  let now = opts.startMs ?? Date.UTC(2026, 0, 5, 9, 0, 0);
  const tick = (ms: number): string => {
    now += ms;
    return new Date(now).toISOString();
  };
  const text = (chars: number): string => {
    const n = Math.max(1, Math.round(chars * scale));
    const at = rng.int(0, Math.max(0, blob.length - n - 1));
    return JSON.stringify(blob.slice(at, at + n));
  };

  const sessionId = opts.sessionId ?? '019b8a8e-2f1c-7d33-9a10-3c55d1e0b7aa';
  const cwd = opts.cwd ?? '/home/alice/work/canopy';
  writeLine(JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: tick(0), cwd }));

  let entries = 0;
  let leaf: string | null = null;
  // Recent entry ids on the current branch, for branch moves and compaction cut points.
  const recent: string[] = [];
  const recentUsers: { id: string; parentId: string | null }[] = [];
  const add = (type: string, payload: string, gapMs = 800): string => {
    const id = newId();
    const head = `{"type":"${type}","id":"${id}","parentId":${leaf === null ? 'null' : `"${leaf}"`},"timestamp":"${tick(gapMs)}"`;
    writeLine(payload ? `${head},${payload}}` : `${head}}`);
    leaf = id;
    recent.push(id);
    if (recent.length > 400) recent.splice(0, 200);
    entries++;
    return id;
  };
  const limit = opts.maxEntries ?? Number.POSITIVE_INFINITY;
  const done = (): boolean => bytes >= opts.targetBytes || entries >= limit;

  let model = rng.pick(MODELS);
  add('model_change', `"provider":"${model.provider}","modelId":"${model.model}"`);
  add('thinking_level_change', `"thinkingLevel":"${rng.pick(LEVELS)}"`);
  let sinceCompaction = 0;
  let named = false;

  const usage = (): string => {
    const input = rng.int(200, 60000);
    const output = rng.int(20, 4000);
    const cacheRead = rng.int(0, 90000);
    return `"usage":{"input":${input},"output":${output},"cacheRead":${cacheRead},"cacheWrite":0,"totalTokens":${input + output + cacheRead},"cost":{"input":${input * 3e-6},"output":${output * 15e-6},"cacheRead":${cacheRead * 3e-7},"cacheWrite":0,"total":${input * 3e-6 + output * 15e-6 + cacheRead * 3e-7}}}`;
  };

  while (!done()) {
    // user prompt
    const image = rng.chance(opts.images ? 0.35 : 0.01);
    const prompt = text(rng.size(300, 1.1, 6000));
    const userContent = image
      ? `[{"type":"text","text":${prompt}},{"type":"image","data":"${base64.slice(0, opts.images ? screenshotBytes(rng) : Math.round(rng.int(40_000, 400_000) * scale))}","mimeType":"image/png"}]`
      : rng.chance(0.3)
        ? `[{"type":"text","text":${prompt}}]`
        : prompt;
    const start = now;
    const u = add('message', `"message":{"role":"user","content":${userContent},"timestamp":${start}}`, 30_000);
    recentUsers.push({ id: u, parentId: recent[recent.length - 2] ?? null });
    if (recentUsers.length > 50) recentUsers.shift();
    sinceCompaction += 200;

    const rounds = rng.int(0, 6);
    for (let r = 0; r <= rounds && !done(); r++) {
      const last = r === rounds;
      const blocks: string[] = [];
      if (rng.chance(0.6))
        blocks.push(
          `{"type":"thinking","thinking":${text(rng.size(400, 1, 8000))},"thinkingSignature":"${base64.slice(0, 120)}"}`,
        );
      const calls: { id: string; name: string }[] = [];
      if (!last) {
        for (let c = rng.int(1, 3); c > 0; c--) {
          const name = rng.pick(TOOLS);
          const id = `toolu_${newId()}${newId()}`;
          calls.push({ id, name });
          const args =
            name === 'edit'
              ? `{"path":"src/parser.ts","oldText":${text(rng.size(200, 1, 3000))},"newText":${text(rng.size(200, 1, 3000))}}`
              : name === 'bash'
                ? `{"command":"npm test -- --run parser"}`
                : `{"path":"src/tree.ts"}`;
          blocks.push(`{"type":"toolCall","id":"${id}","name":"${name}","arguments":${args}}`);
        }
      }
      if (last || rng.chance(0.3)) blocks.push(`{"type":"text","text":${text(rng.size(600, 1, 12000))}}`);
      const stop = last ? 'stop' : 'toolUse';
      add(
        'message',
        `"message":{"role":"assistant","content":[${blocks.join(',')}],"api":"${model.api}","provider":"${model.provider}","model":"${model.model}",${usage()},"stopReason":"${stop}","timestamp":${now}}`,
        4000,
      );
      for (const call of calls) {
        const big = rng.chance(0.005);
        const size = big ? rng.int(60_000, 300_000) : rng.size(1500, 1.1, 60_000);
        const shot = !big && rng.chance(opts.images ? 0.3 : 0.005);
        const content = shot
          ? `[{"type":"text","text":"screenshot"},{"type":"image","data":"${base64.slice(0, opts.images ? screenshotBytes(rng) : Math.round(rng.int(50_000, 300_000) * scale))}","mimeType":"image/png"}]`
          : `[{"type":"text","text":${text(size)}}]`;
        const details =
          call.name === 'edit'
            ? `,"details":{"diff":${text(rng.size(400, 1, 4000))},"firstChangedLine":${rng.int(1, 900)}}`
            : '';
        add(
          'message',
          `"message":{"role":"toolResult","toolCallId":"${call.id}","toolName":"${call.name}","content":${content},"isError":${rng.chance(0.05)}${details},"timestamp":${now}}`,
          1500,
        );
        sinceCompaction += size;
      }
    }
    if (done()) break;

    if (!named && entries > 20) {
      add('session_info', `"name":"Refactor the parser (benchmark)"`);
      named = true;
    }
    if (rng.chance(0.01)) {
      model = rng.pick(MODELS);
      add('model_change', `"provider":"${model.provider}","modelId":"${model.model}"`);
    }
    if (rng.chance(0.01)) add('thinking_level_change', `"thinkingLevel":"${rng.pick(LEVELS)}"`);
    if (rng.chance(0.02) && recent.length > 5) {
      add('label', `"targetId":"${rng.pick(recent.slice(-30))}","label":"checkpoint ${entries}"`);
    }
    if (sinceCompaction * scale > 700_000 && recent.length > 30) {
      const firstKept = recent[recent.length - rng.int(8, 25)]!;
      add(
        'compaction',
        `"summary":${text(rng.size(2500, 0.5, 8000))},"firstKeptEntryId":"${firstKept}","tokensBefore":${rng.int(150_000, 190_000)},"details":{"readFiles":["src/parser.ts","src/tree.ts"],"modifiedFiles":["src/parser.ts"]}`,
      );
      sinceCompaction = 0;
    }
    if (rng.chance(0.03) && recentUsers.length > 3) {
      // /tree: go back to before an earlier prompt and summarise the branch being left.
      const back = recentUsers[rng.int(0, recentUsers.length - 2)]!;
      const from = leaf;
      leaf = back.parentId;
      add('branch_summary', `"fromId":"${leaf ?? 'root'}","summary":${text(rng.size(800, 0.5, 4000))}`);
      void from;
    }
  }
  flush();
  closeSync(fd);
  return { bytes, entries, leafId: leaf ?? '' };
}

/** A screenshot's base64 length: log-uniform over 200 KB–4 MB (median ~0.9 MB). */
function screenshotBytes(rng: Prng): number {
  return Math.round(SHOT_MIN * Math.exp(rng.next() * Math.log(SHOT_MAX / SHOT_MIN)));
}
const SHOT_MIN = 200_000;
const SHOT_MAX = 4_000_000;

let writeBuffer: Buffer | null = null;
let blobCache: string | null = null;
let base64Cache: string | null = null;
let realisticCache: string | null = null;
function sharedBlob(): string {
  blobCache ??= buildBlob(new Prng(7));
  return blobCache;
}
// 24 MiB: a random slice of it rarely overlaps another, so a phrase is in a few entries, not thousands.
function sharedRealisticBlob(): string {
  realisticCache ??= buildRealisticText(new Prng(13), 24 * 1024 * 1024);
  return realisticCache;
}
function sharedBase64(): string {
  // One block repeated: any prefix is the same whatever the length, so older files keep their bytes.
  base64Cache ??= buildBase64(new Prng(11), SHOT_MAX);
  return base64Cache;
}

/** Bump when the shapes change, so cached files are regenerated. */
export const GENERATOR_VERSION = 1;

/**
 * A cached session in `dir` (generated once, reused between runs): about `bytes` bytes, or
 * `extra.maxEntries` entries. The file only gets its final name once it is complete.
 */
export function cachedSession(
  dir: string,
  name: string,
  bytes: number,
  seed = 1,
  extra: { maxEntries?: number; scale?: number; images?: boolean } = {},
): { path: string; info: GeneratedInfo | null } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}-v${GENERATOR_VERSION}.jsonl`);
  if (existsSync(path) && statSync(path).size >= bytes) return { path, info: null };
  const tmp = `${path}.tmp`;
  const info = writeSessionFile(tmp, {
    targetBytes: extra.maxEntries ? Number.POSITIVE_INFINITY : bytes,
    seed,
    ...(extra.maxEntries ? { maxEntries: extra.maxEntries } : {}),
    ...(extra.scale ? { scale: extra.scale } : {}),
    ...(extra.images ? { images: true } : {}),
  });
  renameSync(tmp, path);
  return { path, info };
}

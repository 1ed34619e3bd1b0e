/**
 * Shared pieces of the differential tests: building the corpus into a temp dir, comparing JSON
 * values with a short readable diff, mapping v1 ids (random in pi and in Canopy) by position,
 * and collecting mismatches and counts for the printed summary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCorpus, type BuildOptions, type CorpusFile } from '../fixtures/corpus/build';
import { Rng } from '../fixtures/corpus/rng';

export interface CorpusHandle {
  root: string;
  files: CorpusFile[];
  scratch: string;
  cleanup(): void;
}

export async function makeCorpus(tag: string, options: BuildOptions = {}): Promise<CorpusHandle> {
  const root = mkdtempSync(join(tmpdir(), `canopy-${tag}-`));
  const files = await buildCorpus(join(root, 'sessions'), options);
  return {
    root,
    files,
    scratch: join(root, 'scratch'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function roundTrip<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** The first place where two JSON values differ, as `path: pi=… canopy=…`; null when equal. */
export function firstDiff(pi: unknown, canopy: unknown, path = '$'): string | null {
  // Iterative walk: entry lists can be long, and we never recurse along data we do not control.
  const stack: Array<[unknown, unknown, string]> = [[pi, canopy, path]];
  while (stack.length > 0) {
    const [a, b, p] = stack.pop() as [unknown, unknown, string];
    if (Object.is(a, b)) continue;
    if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
      return `${p}: pi=${show(a)} canopy=${show(b)}`;
    }
    if (Array.isArray(a) !== Array.isArray(b)) return `${p}: pi=${show(a)} canopy=${show(b)}`;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) {
        const i = a.findIndex((x, k) => JSON.stringify(x) !== JSON.stringify(b[k]));
        return `${p}: length pi=${a.length} canopy=${b.length}; first different index ${i}: pi=${show(a[i])} canopy=${show(b[i])}`;
      }
      for (let i = a.length - 1; i >= 0; i--) stack.push([a[i], b[i], `${p}[${i}]`]);
      continue;
    }
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort().reverse();
    for (const k of keys) stack.push([ao[k], bo[k], `${p}.${k}`]);
  }
  return null;
}

/** Id-valued fields of entries (what must be mapped when ids differ between readers). */
const ID_FIELDS = ['id', 'parentId', 'targetId', 'firstKeptEntryId', 'fromId'] as const;

/** Replace ids in entry objects through `map` (ids not in the map stay). Returns new objects. */
export function mapEntryIds(
  entries: ReadonlyArray<Record<string, unknown>>,
  map: (id: string) => string,
): Record<string, unknown>[] {
  return entries.map((e) => {
    const out: Record<string, unknown> = { ...e };
    for (const f of ID_FIELDS) if (typeof out[f] === 'string') out[f] = map(out[f] as string);
    return out;
  });
}

/**
 * Ids a reader made up (not in the source file), renamed `#new0`, `#new1`, … in order of first
 * appearance, so two readers' fresh ids compare structurally.
 */
export function freshIdNamer(sourceIds: ReadonlySet<string>): (id: string) => string {
  const names = new Map<string, string>();
  return (id) => {
    if (sourceIds.has(id)) return id;
    let name = names.get(id);
    if (!name) {
      name = `#new${names.size}`;
      names.set(id, name);
    }
    return name;
  };
}

/** A stable per-file random stream (so the sampled leaves and fork targets never change). */
export function fileRng(name: string, salt: string): Rng {
  return new Rng(20260105).derive(`${salt}:${name}`);
}

/** The physical (1-based) line of the `n`-th non-blank line (pi's H3 "line N" counts non-blank lines). */
export function physicalLineOfNonBlank(text: string, n: number): number | undefined {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? '').trim()) {
      seen += 1;
      if (seen === n) return i + 1;
    }
  }
  return undefined;
}

/**
 * Whether any parentId chain of the file loops (ids resolved last-line-wins, as both pi readers
 * index them). Independent of Canopy: it decides which files are safe to hand to pi in-process.
 */
export function hasParentCycle(text: string): boolean {
  const parentOf = new Map<string, unknown>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (o && typeof o === 'object' && !Array.isArray(o)) {
      const r = o as Record<string, unknown>;
      if (typeof r.id === 'string') parentOf.set(r.id, r.parentId);
    }
  }
  const done = new Set<string>();
  for (const start of parentOf.keys()) {
    const onChain = new Set<string>();
    let cur: string | undefined = start;
    while (cur !== undefined && !done.has(cur)) {
      if (onChain.has(cur)) return true;
      onChain.add(cur);
      const p = parentOf.get(cur);
      cur = typeof p === 'string' && p && parentOf.has(p) ? p : undefined;
    }
    for (const id of onChain) done.add(id);
  }
  return false;
}

export interface Mismatch {
  file: string;
  profile: string;
  what: string;
  diff: string;
}

/** Collects mismatches and counters; prints one summary and formats failures readably. */
export class Report {
  readonly mismatches: Mismatch[] = [];
  readonly counts = new Map<string, number>();
  readonly skipped = new Map<string, string[]>();
  private readonly timings: Array<[string, number]> = [];

  time(file: string, ms: number): void {
    this.timings.push([file, ms]);
  }

  count(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  skip(reason: string, file: string): void {
    const list = this.skipped.get(reason) ?? [];
    list.push(file);
    this.skipped.set(reason, list);
  }

  mismatch(file: string, profile: string, what: string, diff: string): void {
    this.mismatches.push({ file, profile, what, diff });
  }

  /** Compare one field; records a mismatch and returns false when it differs. */
  check(file: string, profile: string, what: string, pi: unknown, canopy: unknown): boolean {
    const d = firstDiff(roundTrip(pi), roundTrip(canopy));
    if (d === null) return true;
    this.mismatch(file, profile, what, d);
    return false;
  }

  summary(title: string): string {
    const lines = [`${title}:`];
    for (const [k, v] of [...this.counts].sort()) lines.push(`  ${k}: ${v}`);
    for (const [reason, files] of this.skipped)
      lines.push(
        `  skipped (${reason}): ${files.length} [${files.slice(0, 4).join(', ')}${files.length > 4 ? ', …' : ''}]`,
      );
    const slow = [...this.timings].sort((a, b) => b[1] - a[1]).slice(0, 3);
    if (slow.length > 0)
      lines.push(`  slowest files: ${slow.map(([f, ms]) => `${f} ${Math.round(ms)} ms`).join(', ')}`);
    lines.push(`  mismatches: ${this.mismatches.length}`);
    return lines.join('\n');
  }

  /** Mismatches grouped by file: the first few per file, so one broken rule does not flood the output. */
  failureText(fileLimit = 30, perFile = 3): string {
    const byFile = new Map<string, Mismatch[]>();
    for (const m of this.mismatches) {
      const key = `[${m.profile}] ${m.file}`;
      const list = byFile.get(key) ?? [];
      list.push(m);
      byFile.set(key, list);
    }
    const lines: string[] = [];
    for (const [key, list] of [...byFile].slice(0, fileLimit)) {
      lines.push(`- ${key} (${list.length} mismatch${list.length === 1 ? '' : 'es'})`);
      for (const m of list.slice(0, perFile)) lines.push(`    ${m.what}: ${m.diff}`);
    }
    if (byFile.size > fileLimit) lines.push(`… and ${byFile.size - fileLimit} more files`);
    return lines.join('\n');
  }
}

/**
 * The secret radar over many session files, incremental by byte offset like the search index: a
 * small cache in Canopy's cache folder (never in a root) remembers per file how far it was scanned
 * and its findings, masked. An append is scanned alone; a file that shrank, changed inode or whose
 * last scanned bytes differ is scanned again; a changed rule set rescans everything.
 */
import { join } from 'node:path';
import type { SecretFinding } from './rules/types';
import { throwawayCacheDir } from '../storage/cache-dir';
import { readJsonFile, replaceJsonFile } from '../storage/json-file';
import { readRange } from '../storage/read';
import { OpenGate } from '../threads/open-gate';
import { errnoCode, statPathSync, type FileFacts } from '../storage/stat';
import { scanFileSecrets, tailHash, type FileScan, type ScanStart } from './file-scan';
import { SECRET_MATCHERS, SECRET_RULES_VERSION } from './secretlint-matcher';

export const SECRETS_CACHE_FILE = 'secrets-index.json';

/** Where the radar's cache for these roots lives (throws when the cache folder lies inside one of them). */
export function secretsCachePath(roots: readonly string[], env: Record<string, string | undefined>): string {
  return join(throwawayCacheDir(roots, env).dir, SECRETS_CACHE_FILE);
}
const SAVE_EVERY_MS = 5000;

interface CachedFile extends Omit<FileScan, 'problems'> {
  problems: FileScan['problems'];
}

interface CacheShape {
  version: string;
  files: Record<string, CachedFile>;
}

export interface SecretsStatus {
  scanning: boolean;
  done: number;
  total: number;
  /** Sessions with at least one finding so far. */
  withFindings: number;
}

/** The status before any pass. */
export const IDLE_SECRETS_STATUS: Readonly<SecretsStatus> = { scanning: false, done: 0, total: 0, withFindings: 0 };

export interface SessionSecrets {
  path: string;
  sessionId: string | null;
  findings: SecretFinding[];
  problems: FileScan['problems'];
}

export interface SecretsServiceOptions {
  roots: readonly string[];
  env?: Record<string, string | undefined>;
  onStatus?: (s: SecretsStatus) => void;
  /** The scan waits at its pause points while a session opens (default: a gate of its own). */
  gate?: OpenGate;
}

const isCache = (v: unknown): v is CacheShape =>
  typeof v === 'object' &&
  v !== null &&
  (v as CacheShape).version === SECRET_RULES_VERSION &&
  typeof (v as CacheShape).files === 'object';

export class SecretsService {
  readonly cachePath: string;
  private cache: Promise<CacheShape> | undefined;
  private status: SecretsStatus = { ...IDLE_SECRETS_STATUS };
  private running: Promise<void> = Promise.resolve();
  private readonly gate: OpenGate;

  constructor(private readonly options: SecretsServiceOptions) {
    this.gate = options.gate ?? new OpenGate();
    this.cachePath = secretsCachePath(options.roots, options.env ?? process.env);
  }

  getStatus(): SecretsStatus {
    return { ...this.status };
  }

  /** The one cache in memory: callers during the first read share it (two reads made two caches, and
   * counts could read the one no pass wrote into). A failed read is tried again by the next caller. */
  private load(): Promise<CacheShape> {
    if (this.cache) return this.cache;
    const loading = readJsonFile(this.cachePath).then((v): CacheShape =>
      isCache(v) ? v : { version: SECRET_RULES_VERSION, files: {} },
    );
    loading.catch(() => {
      if (this.cache === loading) this.cache = undefined;
    });
    return (this.cache = loading);
  }

  /** Where the scan of `path` starts (null: scanned as it is). */
  private async startOf(prev: CachedFile | undefined, path: string, facts: FileFacts): Promise<ScanStart | null> {
    const fresh: ScanStart = { from: 0, line: 1, v1: false, sessionId: null };
    if (!prev) return fresh;
    if (prev.ino === facts.ino && prev.size === facts.size && prev.mtimeMs === facts.mtimeMs) return null;
    if (prev.ino !== facts.ino || facts.size < prev.from) return fresh;
    if (prev.tailBytes > 0) {
      const now = await readRange(path, prev.from - prev.tailBytes, prev.tailBytes);
      if (tailHash(now) !== prev.tail) return fresh;
    }
    return prev;
  }

  /** Brings `paths` up to date (one at a time; a second call waits for the first). */
  update(paths: readonly string[], signal?: AbortSignal): Promise<void> {
    const run = this.running.then(() => this.run(paths, signal));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async run(paths: readonly string[], signal?: AbortSignal): Promise<void> {
    const cache = await this.load();
    this.setStatus({ scanning: true, done: 0, total: paths.length, withFindings: 0 });
    let changed = false;
    let saved = Date.now();
    let withFindings = 0;
    try {
      for (const [i, path] of paths.entries()) {
        if (signal?.aborted) break;
        await this.gate.pause();
        changed = (await this.syncOne(cache, path, signal)) || changed;
        // A long first scan is kept as it goes: stopping the app loses at most the last few seconds.
        if (changed && Date.now() - saved >= SAVE_EVERY_MS) {
          await replaceJsonFile(this.cachePath, cache);
          saved = Date.now();
          changed = false;
        }
        if ((cache.files[path]?.findings.length ?? 0) > 0) withFindings++;
        this.setStatus({ scanning: true, done: i + 1, total: paths.length, withFindings });
      }
    } finally {
      if (changed) await replaceJsonFile(this.cachePath, cache);
      this.setStatus({ ...this.status, scanning: false });
    }
  }

  private async syncOne(cache: CacheShape, path: string, signal?: AbortSignal): Promise<boolean> {
    let facts: FileFacts;
    try {
      facts = statPathSync(path);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      const had = path in cache.files;
      delete cache.files[path];
      return had;
    }
    const prev = cache.files[path];
    const start = await this.startOf(prev, path, facts);
    if (!start) return false;
    const appended = start === prev;
    const scan = await scanFileSecrets(path, start, SECRET_MATCHERS, {
      pause: this.gate.pause,
      ...(signal ? { signal } : {}),
    });
    cache.files[path] = {
      ...scan,
      findings: appended ? [...prev.findings, ...scan.findings] : scan.findings,
      problems: appended ? [...prev.problems, ...scan.problems] : scan.problems,
    };
    return true;
  }

  private setStatus(s: SecretsStatus): void {
    this.status = s;
    this.options.onStatus?.({ ...s });
  }

  /** The findings of a scanned file (undefined when it was not scanned). */
  async secretsOf(path: string): Promise<SessionSecrets | undefined> {
    await this.running;
    const f = (await this.load()).files[path];
    return f && { path, sessionId: f.sessionId, findings: f.findings, problems: f.problems };
  }

  /** Findings counts of every scanned file. */
  async counts(): Promise<Map<string, number>> {
    const files = (await this.load()).files;
    return new Map(Object.entries(files).map(([p, f]) => [p, f.findings.length]));
  }
}

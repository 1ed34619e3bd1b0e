/**
 * Loads pi's own session code (devDependencies, tests only).
 *
 * - H3 = @earendil-works/pi-agent-core@0.82.1 (harness JSONL store), imported normally.
 * - CA = @earendil-works/pi-coding-agent@1.6.0. Its package root does not load on Node 20 and its
 *   `exports` map hides deep paths, so the session manager is imported by file URL. The minimal
 *   interfaces below describe the part of its API the corpus and the oracle use.
 */
import * as h3 from '@earendil-works/pi-agent-core';
import { NodeExecutionEnv } from '@earendil-works/pi-agent-core/node';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type CaEntry = Record<string, any> & { type: string; id: string; parentId: string | null; timestamp: string };
export type CaHeader = Record<string, any> & { type: 'session'; id: string; timestamp: string; cwd: string };

export interface CaSessionManager {
  getSessionFile(): string | undefined;
  getSessionDir(): string;
  getCwd(): string;
  getHeader(): CaHeader | null;
  getEntries(): CaEntry[];
  getEntry(id: string): CaEntry | undefined;
  getLeafId(): string | null;
  getBranch(fromId?: string): CaEntry[];
  getLabel(id: string): string | undefined;
  getSessionName(): string | undefined;
  buildContextEntries(): CaEntry[];
  buildSessionContext(): { messages: unknown[]; thinkingLevel: string; model: unknown };
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(level: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendUsage(kind: string, provider: string, model: string, usage: unknown, note?: string): CaEntry;
  appendCompaction(
    summary: string,
    firstKeptEntryId: string | undefined,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
    usage?: unknown,
  ): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendSessionInfo(name: string): string;
  appendContextEdit(targetId: string, replacement: null | { content: unknown }): string;
  branch(id: string): void;
  resetLeaf(): void;
  branchWithSummary(id: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: unknown): string;
  createBranchedSession(leafId: string): string | undefined;
  newSession(options?: { id?: string; parentSession?: string }): string | undefined;
}

export interface CaSessionManagerStatic {
  create(cwd: string, sessionDir?: string, options?: { id?: string; parentSession?: string }): CaSessionManager;
  open(path: string, sessionDir?: string, cwdOverride?: string): CaSessionManager;
  forkFrom(sourcePath: string, targetCwd: string, sessionDir?: string, options?: { id?: string }): CaSessionManager;
}

export interface CaModule {
  SessionManager: CaSessionManagerStatic;
  buildSessionContext(
    entries: CaEntry[],
    leafId?: string | null,
  ): { messages: unknown[]; thinkingLevel: string; model: unknown };
  buildContextEntries(entries: CaEntry[], leafId?: string | null): CaEntry[];
}

export interface CaCompactionModule {
  prepareCompaction(
    pathEntries: CaEntry[],
    settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number },
  ): { firstKeptEntryId: string; tokensBefore: number } | undefined;
}

export interface PiModules {
  ca: CaModule;
  caCompaction: CaCompactionModule;
  h3: typeof h3;
  NodeExecutionEnv: typeof NodeExecutionEnv;
}

function codingAgentDistUrl(relative: string): string {
  const resolve = (import.meta as { resolve?: (s: string) => string }).resolve;
  if (typeof resolve === 'function') {
    return new URL(relative, resolve('@earendil-works/pi-coding-agent')).href;
  }
  // Fallback for loaders without import.meta.resolve: walk up to node_modules.
  let dir = process.cwd();
  for (;;) {
    const root = join(dir, 'node_modules/@earendil-works/pi-coding-agent/dist');
    if (existsSync(root)) return pathToFileURL(join(root, relative)).href;
    const parent = join(dir, '..');
    if (parent === dir) throw new Error('@earendil-works/pi-coding-agent is not installed');
    dir = parent;
  }
}

let loaded: Promise<PiModules> | undefined;

export function loadPi(): Promise<PiModules> {
  loaded ??= (async () => {
    const ca = (await import(/* @vite-ignore */ codingAgentDistUrl('./core/session-manager.js'))) as CaModule;
    const caCompaction = (await import(
      /* @vite-ignore */ codingAgentDistUrl('./core/compaction/compaction.js')
    )) as CaCompactionModule;
    return { ca, caCompaction, h3, NodeExecutionEnv };
  })();
  return loaded;
}

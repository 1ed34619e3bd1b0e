/**
 * pi's own context helpers (devDependencies, tests only) for the context-view tests: convertToLlm,
 * estimateTokens, the context size pi reports, getCurrentSystemMessage and H3 getSessionStats.
 * CA modules are imported by file URL (the package root does not load on Node 20).
 */
import * as h3 from '@earendil-works/pi-agent-core';
import { NodeExecutionEnv } from '@earendil-works/pi-agent-core/node';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Profile } from '../../electron/core';
import { tempDir } from '../storage/tmp';
import { header, jsonl } from './helpers';

type Rec = Record<string, any>;
type Fn = (...args: any[]) => any;

function caUrl(relative: string): string {
  return new URL(relative, import.meta.resolve('@earendil-works/pi-coding-agent')).href;
}

export interface PiContext {
  convertToLlm(profile: Profile, messages: unknown[]): Rec[];
  estimateTokens(profile: Profile, message: unknown): number;
  /** CA: estimateProjectedContextTokens(buildSessionProjection(entries, leaf), branch); H3: estimateContextTokens(messages). */
  contextTokens(profile: Profile, entries: Rec[], leafId: string | null, messages: unknown[], branch: Rec[]): number;
  currentSystem(messages: unknown[]): Rec;
  h3Stats(entries: Rec[]): Promise<Rec>;
}

let loaded: Promise<PiContext> | undefined;

export function loadPiContext(): Promise<PiContext> {
  loaded ??= (async () => {
    const caMessages = (await import(/* @vite-ignore */ caUrl('./core/messages.js'))) as { convertToLlm: Fn };
    const caCompaction = (await import(/* @vite-ignore */ caUrl('./core/compaction/compaction.js'))) as Record<
      string,
      Fn
    >;
    const caSession = (await import(/* @vite-ignore */ caUrl('./core/session-manager.js'))) as Record<string, Fn>;
    const transcript = (await import(
      /* @vite-ignore */ caUrl('../node_modules/@earendil-works/pi-ai/dist/utils/transcript.js')
    )) as Record<string, Fn>;
    const h3Core = h3 as unknown as Record<string, Fn>;
    return {
      convertToLlm: (profile, messages) =>
        profile === 'ca' ? caMessages.convertToLlm(messages) : h3Core.convertToLlm!(messages),
      estimateTokens: (profile, message) =>
        profile === 'ca' ? caCompaction.estimateTokens!(message) : h3Core.estimateTokens!(message),
      contextTokens: (profile, entries, leafId, messages, branch) =>
        profile === 'ca'
          ? caCompaction.estimateProjectedContextTokens!(caSession.buildSessionProjection!(entries, leafId), branch)
              .tokens
          : h3Core.estimateContextTokens!(messages).tokens,
      currentSystem: (messages) => transcript.getCurrentSystemMessage!(messages),
      h3Stats: async (entries) => {
        const dir = await tempDir('canopy-oracle-');
        const path = join(dir, 'session.jsonl');
        await writeFile(path, jsonl([header(), ...entries]));
        const storage = await h3.JsonlSessionStorage.open(new NodeExecutionEnv({ cwd: dir }), path);
        return (await storage.getSessionStats()) as Rec;
      },
    };
  })();
  return loaded;
}

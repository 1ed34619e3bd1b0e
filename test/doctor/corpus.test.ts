/**
 * The doctor over the whole generated corpus (pi-written sessions of both writers, pi's forks, old
 * formats and damaged files): it never fails on a session, every repaired file loads in pi 1.6.0
 * with no entry pointing at a missing parent and no tool call without a result, and a repaired file
 * examined again has nothing left to repair.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examineSession } from '../../electron/doctor';
import { buildCorpus } from '../fixtures/corpus/build';
import type { CorpusFile } from '../fixtures/corpus/types';
import { piRead, sha } from './pi-sessions';

let tmp: string;
let corpus: CorpusFile[];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-doctor-corpus-'));
  corpus = await buildCorpus(join(tmp, 'sessions'), { perWriter: 32 });
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Tool calls in a context with no result after them. */
function unanswered(messages: any[]): string[] {
  const answered = new Set(messages.filter((m) => m.role === 'toolResult').map((m) => m.toolCallId));
  return messages
    .filter((m) => m.role === 'assistant' && m.stopReason !== 'aborted' && m.stopReason !== 'error')
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === 'toolCall' && !answered.has(b.id))
    .map((b: any) => b.id);
}

describe('canopy doctor over the corpus', () => {
  it('repairs what it finds into files pi 1.6.0 loads whole, with nothing left to repair', async () => {
    let repaired = 0;
    for (const f of corpus.filter((c) => c.format !== null)) {
      const before = sha(f.path);
      let r;
      try {
        r = await examineSession(f.path, { write: true });
      } catch (err) {
        // Only a file pi does not read as a session is refused.
        expect((err as { code?: string }).code, f.name).toBe('invalid_session');
        continue;
      }
      expect(sha(f.path), f.name).toBe(before);
      for (const out of r.repairs) {
        repaired++;
        const again = await examineSession(out.path);
        expect(
          again.marks.filter((m) => m.repair !== null),
          `${f.name} → ${out.path}`,
        ).toEqual([]);
        if (f.cyclic) continue; // pi's own walk never returns on a parent cycle
        const pi = await piRead(out.path, join(tmp, 'scratch'));
        expect(pi.dangling, f.name).toEqual([]);
        if (r.marks.some((m) => m.kind === 'orphan_tool_calls'))
          expect(unanswered(pi.context.messages), f.name).toEqual([]);
      }
    }
    expect(repaired).toBeGreaterThan(3);
  }, 120_000);
});

/**
 * A 20 MB image line: entry.get's answer and a preview read on their own, before (the whole line
 * parsed, the whole raw sent) and after (the cut and the skim). Prints medians and ranges of both in
 * the same run; asserts the answer size and that the cut path is faster.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewEntry } from '../../electron/core';
import { createHandlers } from '../../electron/ipc/handlers';
import { SessionCatalog } from '../../electron/repo/catalog';
import { projectDirName } from '../repo/helpers';
import { sessionsOf } from '../repo/helpers';

const SID = '019c0000-0000-7000-8000-0000000020aa';
const RUNS = 7;

/** The session, generated once into $TMPDIR/canopy-bench (a user message with a 20 MB screenshot). */
function sessionRoot(): string {
  const root = join(process.env.TMPDIR ?? tmpdir(), 'canopy-bench', 'payload-20mb');
  const dir = join(root, projectDirName('/shots'));
  const file = join(dir, `2026-03-01T10-00-00-000Z_${SID}.jsonl`);
  if (existsSync(file)) return root;
  mkdirSync(dir, { recursive: true });
  const bytes = Buffer.alloc(15 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
  const lines = [
    { type: 'session', version: 3, id: SID, timestamp: '2026-03-01T10:00:00.000Z', cwd: '/shots' },
    {
      type: 'message',
      id: 'u1',
      parentId: null,
      timestamp: '2026-03-01T10:00:01.000Z',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'the page now' },
          { type: 'image', data: bytes.toString('base64'), mimeType: 'image/png' },
        ],
        timestamp: 1,
      },
    },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return root;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) =>
  `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

/** A fresh catalog with the session indexed and no body read (session.open may read some). */
async function opened(root: string) {
  const catalog = new SessionCatalog({ roots: [root] });
  const handlers = createHandlers({ catalog, version: 'bench', transport: 'http' });
  await handlers['sessions.list']({});
  await sessionsOf(catalog).with(SID, () => null);
  return { catalog, handlers };
}

describe('a 20 MB image line', () => {
  it('entry.get and its preview: cut vs whole, in the same run', async () => {
    const root = sessionRoot();
    const t = {
      beforeGet: [] as number[],
      afterGet: [] as number[],
      beforePreview: [] as number[],
      afterPreview: [] as number[],
    };
    let beforeBytes = 0;
    let afterBytes = 0;
    for (let run = 0; run < RUNS; run++) {
      {
        // Before: the entry's whole raw parsed and encoded for the wire (what entry.get did).
        const { catalog } = await opened(root);
        const t0 = performance.now();
        const text = await sessionsOf(catalog).with(SID, ({ session }) =>
          JSON.stringify({ raw: session.entries.find((e) => e.id === 'u1')!.raw }),
        );
        t.beforeGet.push(performance.now() - t0);
        beforeBytes = text.length;
      }
      {
        const { handlers } = await opened(root);
        const t0 = performance.now();
        const text = JSON.stringify(await handlers['entry.get']({ sessionId: SID, entryId: 'u1' }));
        t.afterGet.push(performance.now() - t0);
        afterBytes = text.length;
      }
      {
        const { catalog } = await opened(root);
        const t0 = performance.now();
        const p = await sessionsOf(catalog).with(SID, ({ session }) =>
          previewEntry(session.entries.find((e) => e.id === 'u1')!),
        );
        t.beforePreview.push(performance.now() - t0);
        expect(p.preview).toContain('the page now');
      }
      {
        const { handlers } = await opened(root);
        const t0 = performance.now();
        const p = await handlers['session.previews']({ sessionId: SID, entryIds: ['u1'] });
        t.afterPreview.push(performance.now() - t0);
        expect(p.u1?.preview).toContain('the page now');
      }
    }
    console.log(
      [
        `[payload] 20 MB image line, ${RUNS} runs, median (min–max):`,
        `  entry.get before: ${range(t.beforeGet)}, ${beforeBytes} bytes of JSON`,
        `  entry.get after:  ${range(t.afterGet)}, ${afterBytes} bytes of JSON (time ratio ${(median(t.afterGet) / median(t.beforeGet)).toFixed(2)}×)`,
        `  preview before:   ${range(t.beforePreview)}`,
        `  preview after:    ${range(t.afterPreview)} (time ratio ${(median(t.afterPreview) / median(t.beforePreview)).toFixed(2)}×)`,
      ].join('\n'),
    );
    expect(beforeBytes).toBeGreaterThan(20_000_000);
    expect(afterBytes).toBeLessThan(4096);
    expect(median(t.afterGet)).toBeLessThan(median(t.beforeGet));
    expect(median(t.afterPreview)).toBeLessThan(median(t.beforePreview));
  }, 300_000);
});

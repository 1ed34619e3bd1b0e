/**
 * A long session.open reports how far it got (index, then the previews pass) and can be
 * cancelled; a long listing reports the files it read. Events go through the catalog's bus, as
 * both transports forward them.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { EventBus } from '../../electron/repo/event-bus';
import { SessionCatalog } from '../../electron/repo/catalog';
import type { Events } from '../../electron/shared/contract';
import { graphFromWire } from '../../electron/shared/entry-nodes';
import { tempDir } from './helpers';
import { sessionsOf } from './helpers';

type Progress = Events['session.progress'];

async function bigSession(): Promise<{ root: string; path: string; size: number }> {
  const root = await tempDir('canopy-progress-');
  const dir = join(root, '--home-alice-big--');
  await mkdir(dir);
  const path = join(dir, 'big.jsonl');
  const info = writeSessionFile(path, { targetBytes: 4_000_000, seed: 5, scale: 0.3 });
  return { root, path, size: info.bytes };
}

function recorder(bus: EventBus): { opens: Progress[]; lists: Events['sessions.progress'][] } {
  const out = { opens: [] as Progress[], lists: [] as Events['sessions.progress'][] };
  bus.subscribe((event, payload) => {
    if (event === 'session.progress') out.opens.push(payload as Progress);
    if (event === 'sessions.progress') out.lists.push(payload as Events['sessions.progress']);
  });
  return out;
}

describe('session.open progress and cancel', () => {
  it('reports the bytes read while indexing (previews skimmed in the same read) and while a flags pass reads previews, up to the bytes to read', async () => {
    const { root, size } = await bigSession();
    const bus = new EventBus();
    const seen = recorder(bus);
    // The file is first opened small (previews with the graph), then in a catalog that opens it lazily.
    const catalog = new SessionCatalog({ roots: [root], bus, progressDelayMs: 0 });
    const list = await catalog.list();
    expect(seen.lists.at(-1)).toEqual({ done: 1, total: 1 });
    const sessionId = list.sessions[0]!.sessionId;
    await sessionsOf(catalog).graph(sessionId);
    expect(seen.opens.filter((e) => e.phase === 'previews')).toEqual([]);
    const lazy = new SessionCatalog({ roots: [root], bus, progressDelayMs: 0, lazyAboveBytes: 1024 });
    await lazy.list();
    await sessionsOf(lazy).graph(sessionId);
    await sessionsOf(lazy).flags(sessionId);
    for (const phase of ['index', 'previews'] as const) {
      const events = seen.opens.filter((e) => e.phase === phase);
      expect(events.length, phase).toBeGreaterThan(0);
      // Indexing reads the whole file; the previews pass starts at the first entry (after the header).
      const total = events[0]!.total;
      if (phase === 'index') expect(total).toBe(size);
      else expect(total).toBeGreaterThan(size * 0.99);
      expect(events.every((e) => e.sessionId === sessionId && e.total === total && e.done <= total)).toBe(true);
      if (phase === 'previews')
        expect(events.map((e) => e.done)).toEqual([...events.map((e) => e.done)].sort((a, b) => a - b));
      expect(events.at(-1)!.done, phase).toBe(total);
    }
    // Indexing comes first.
    expect(seen.opens.findIndex((e) => e.phase === 'previews')).toBeGreaterThan(
      seen.opens.findIndex((e) => e.phase === 'index'),
    );
  });

  it('stays silent for opens faster than the delay', async () => {
    const { root } = await bigSession();
    const bus = new EventBus();
    const seen = recorder(bus);
    const catalog = new SessionCatalog({ roots: [root], bus, progressDelayMs: 60_000 });
    const list = await catalog.list();
    await sessionsOf(catalog).graph(list.sessions[0]!.sessionId);
    expect(seen.opens).toEqual([]);
    expect(seen.lists).toEqual([]);
  });

  it('cancels a running open with `cancelled`; the next open reads the file again and succeeds', async () => {
    const { root } = await bigSession();
    const bus = new EventBus();
    const catalog = new SessionCatalog({ roots: [root], bus, progressDelayMs: 0 });
    const sessionId = (await catalog.list()).sessions[0]!.sessionId;
    expect(sessionsOf(catalog).cancelOpen(sessionId)).toBe(false);
    const cancelled: boolean[] = [];
    const off = bus.subscribe((event) => {
      if (event === 'session.progress' && cancelled.length === 0)
        cancelled.push(sessionsOf(catalog).cancelOpen(sessionId));
    });
    await expect(sessionsOf(catalog).graph(sessionId)).rejects.toMatchObject({ code: 'cancelled' });
    off();
    expect(cancelled).toEqual([true]);
    const graph = await sessionsOf(catalog).graph(sessionId);
    expect(graphFromWire(graph).entries.length).toBeGreaterThan(100);
  });
});

/**
 * `canopy storage`: each session's parts add up to its file size, images / outputs / abandoned
 * branches / fork copies land where they are, and a family is stale only when every member is.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { writePiStore, type PiStore } from './pi-store';

let store: PiStore;
let tmp: string;
let handmade: string;
const OUT = 'x'.repeat(5000);

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-storage-'));
  store = await writePiStore(join(tmp, 'sessions'));
  // Tool and bash output, written by hand (CRLF line ends, a torn last line).
  const dir = join(tmp, 'hand', '--h--');
  mkdirSync(dir, { recursive: true });
  handmade = join(dir, '2026-11-01T00-00-00-000Z_hand.jsonl');
  const lines = [
    { type: 'session', version: 3, id: 'hand', timestamp: '2026-11-01T00:00:00.000Z', cwd: '/h' },
    {
      type: 'message',
      id: 'a1',
      parentId: null,
      timestamp: '2026-11-01T00:00:01.000Z',
      message: {
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'read',
        content: [{ type: 'text', text: OUT }],
        isError: false,
        timestamp: 1,
      },
    },
    {
      type: 'message',
      id: 'a2',
      parentId: 'a1',
      timestamp: '2026-11-01T00:00:02.000Z',
      message: {
        role: 'bashExecution',
        command: 'ls',
        output: OUT + OUT,
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 2,
      },
    },
  ].map((l) => JSON.stringify(l));
  writeFileSync(handmade, lines.join('\r\n') + '\r\n{"type":"mess');
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sum = (r: Record<string, number>) => r.image! + r.toolOutput! + r.abandoned! + r.copied! + r.rest!;

function files(root: string): string[] {
  return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)));
}

describe('canopy storage', () => {
  it("splits every session into parts that add up to its file's size", async () => {
    const run = await cli('storage', '--root', store.root, '--root', join(tmp, 'hand'), '--top', '100', '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const sessions = run.json.filter((l) => l.kind === 'session');
    const all = [...files(store.root), handmade];
    expect(sessions.map((s) => s.path).sort()).toEqual(all.sort());
    for (const s of sessions) {
      expect(s.total, s.path).toBe(statSync(s.path).size);
      expect(sum(s), s.path).toBe(s.total);
    }
    const byPath = new Map(sessions.map((s) => [s.path, s]));
    const a = byPath.get(store.files.a)!;
    expect(a.abandoned).toBeGreaterThan(0);
    expect(a.copied).toBe(0);
    expect(byPath.get(store.files.fork)!.copied).toBeGreaterThan(0);
    expect(byPath.get(store.files.clone)!.copied).toBeGreaterThan(byPath.get(store.files.fork)!.copied);
    expect(byPath.get(store.files.other)!.image).toBe('iVBORw0KGgo'.length * 3000);
    const hand = byPath.get(handmade)!;
    expect(hand.toolOutput).toBe(3 * OUT.length);
    expect(hand.image).toBe(0);
    const total = run.json.at(-1)!;
    expect(total.kind).toBe('total');
    expect(total.total).toBe(all.reduce((n, f) => n + statSync(f).size, 0));
    expect(sum(total)).toBe(total.total);
    expect(total.families).toBe(3);
    const projects = run.json.filter((l) => l.kind === 'project');
    expect(projects.reduce((n, p) => n + p.total, 0)).toBe(total.total);
    expect(projects.find((p) => p.project === '/home/alice/proj')!.sessions).toBe(3);
  });

  it('calls a fork family stale only when none of its files was written for N days', async () => {
    const old = (Date.now() - 40 * 86_400_000) / 1000;
    for (const f of [store.files.a, store.files.fork, store.files.other]) utimesSync(f, old, old);
    const stale = async () =>
      (await cli('storage', '--root', store.root, '--stale-days', '30', '--json')).json.filter(
        (l) => l.kind === 'staleFamily',
      );
    let families = await stale();
    expect(families.map((f) => f.sessions.map((s: { path: string }) => s.path))).toEqual([[store.files.other]]);
    utimesSync(store.files.clone, old, old);
    families = await stale();
    expect(families).toHaveLength(2);
    const fam = families.find((f) => f.sessions.length === 3)!;
    expect(fam.bytes).toBe(
      [store.files.a, store.files.fork, store.files.clone].reduce((n, f) => n + statSync(f).size, 0),
    );
    expect(readFileSync(store.files.a, 'utf8')).toContain('"type":"session"');
  });
});

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from '../cli/run-cli';
import { writePlantedSession, type PlantedSession } from '../fixtures/secrets/session';
import { hashTree, projectDirName } from '../repo/helpers';
import { messageLine } from '../../pi-package/src/compact';
import { startPi, type ToolResult } from './pi-harness';
import { leaks } from '../fixtures/secrets/leaks';

let agentDir: string;
let cwd: string;
let sessionsRoot: string;
let mine: PlantedSession;
let sibling: PlantedSession;
let results: Map<string, ToolResult>;
let loadErrors: string[];
let toolNames: string[];
let before: Map<string, string>;
// Folders shared by the whole file (the helpers' tempDir is removed after each test).
const made: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

beforeAll(async () => {
  agentDir = await tempDir('canopy-pi-agent-');
  vi.stubEnv('PI_CODING_AGENT_DIR', agentDir);
  vi.stubEnv('CANOPY_CACHE_DIR', await tempDir('canopy-pi-cache-'));
  vi.stubEnv('CANOPY_DATA_DIR', await tempDir('canopy-pi-data-'));
  cwd = await tempDir('canopy-pi-proj-');
  sessionsRoot = join(agentDir, 'sessions');
  // Two projects pi wrote: this one, and a sibling whose folder name starts with this one's.
  mine = await writePlantedSession(join(sessionsRoot, projectDirName(cwd)), 1, [], cwd);
  await mkdir(`${cwd}2`, { recursive: true });
  sibling = await writePlantedSession(join(sessionsRoot, projectDirName(`${cwd}2`)), 2, [], `${cwd}2`);
  before = await hashTree(sessionsRoot);
  const pi = await startPi({
    cwd,
    agentDir,
    turns: [
      {
        tools: [
          { id: 's-default', name: 'session_search', args: { query: 'config' } },
          { id: 's-all', name: 'session_search', args: { query: 'branch point', scope: 'all' } },
          { id: 's-limit', name: 'session_search', args: { query: 'here', limit: 3 } },
          { id: 's-bad', name: 'session_search', args: { query: 're:a(b' } },
          {
            id: 'c-small',
            name: 'session_context',
            args: { session: mine.sessionId, leaf: mine.mainLeaf, budget: 300 },
          },
          {
            id: 'c-side',
            name: 'session_context',
            args: { session: mine.sessionId, leaf: mine.sideLeaf, budget: 16000 },
          },
          { id: 'c-other', name: 'session_context', args: { session: sibling.sessionId } },
          { id: 'c-other-all', name: 'session_context', args: { session: sibling.sessionId, scope: 'all' } },
        ],
      },
      { text: 'done' },
    ],
  });
  loadErrors = pi.extensionErrors;
  toolNames = pi.toolNames;
  try {
    await pi.prompt('what did we do about the config before?');
    results = new Map(pi.toolResults().map((r) => [r.toolCallId, r]));
  } finally {
    pi.dispose();
  }
}, 240_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
  await rm(`${cwd}2`, { recursive: true, force: true });
});

describe('the Canopy pi package, loaded by pi 1.6.0 and called by a scripted model', () => {
  it('loads without errors and offers both tools', () => {
    expect(loadErrors).toEqual([]);
    expect(toolNames).toEqual(expect.arrayContaining(['session_search', 'session_context']));
    expect(results.size).toBe(8);
  });

  it('session_search answers what `canopy search --json --redact` answers, in this project only by default', async () => {
    const r = results.get('s-default')!;
    expect(r.isError).toBe(false);
    const expected = await cli(
      'search',
      'config',
      '--json',
      '--redact',
      '--limit',
      '10',
      '--root',
      sessionsRoot,
      '--cwd',
      cwd,
    );
    expect(expected.json.length).toBeGreaterThan(3);
    expect(r.details.hits).toEqual(expected.json);
    for (const h of r.details.hits) {
      expect(h.cwd).toBe(cwd);
      expect(r.text).toContain(`session ${h.sessionId}  entry ${h.entryId}`);
    }
    for (const p of [...mine.plants, ...sibling.plants]) expect(leaks(r.text, p.value), p.family).toBe(false);
    // Asked for: every project.
    const all = results.get('s-all')!;
    expect(new Set(all.details.hits.map((h: { cwd: string }) => h.cwd))).toEqual(new Set([cwd, `${cwd}2`]));
  });

  it('results are bounded: limit 3 gives 3 hits and says more exist; a bad query is a clear tool error', () => {
    const r = results.get('s-limit')!;
    expect(r.details.hits).toHaveLength(3);
    expect(r.details.more).toBe(true);
    expect(r.text).toMatch(/more exist/);
    const bad = results.get('s-bad')!;
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/bad query: re: is not a valid regular expression/);
  });

  it('session_context is `canopy context --json --redact` at the leaf, within the budget it states', async () => {
    const small = results.get('c-small')!;
    expect(small.isError).toBe(false);
    const expected = (await cli('context', mine.path, '--leaf', mine.mainLeaf, '--json', '--redact')).json[0]!;
    expect(small.details.leafId).toBe(expected.leafId);
    expect(small.details.pathIds).toEqual(expected.pathIds);
    expect(small.text.length).toBeLessThanOrEqual(300 * 4);
    expect(small.details.tokens).toBeLessThanOrEqual(300);
    const messages = expected.context.messages as unknown[];
    // The newest message is there; the budget left older ones out and says so.
    expect(small.text).toContain(messageLine(messages[messages.length - 1]));
    expect(small.text).toMatch(/older ones left out for the 300-token budget/);
    for (const p of mine.plants) expect(leaks(small.text, p.value), p.family).toBe(false);

    const side = results.get('c-side')!;
    const sideExpected = (await cli('context', mine.path, '--leaf', mine.sideLeaf, '--json', '--redact')).json[0]!;
    expect(side.details.pathIds).toEqual(sideExpected.pathIds);
    const lines = side.text.split('\n');
    const sideMessages = sideExpected.context.messages as unknown[];
    // A budget wide enough shows each message, in order (each clipped to an eighth of the budget).
    expect(lines.length).toBe(2 + sideMessages.length);
    sideMessages.forEach((m, i) => expect(messageLine(m).startsWith(lines[2 + i]!.replace(/…$/, ''))).toBe(true));
    for (const p of mine.plants) expect(leaks(side.text, p.value), p.family).toBe(false);
    expect(side.text).toContain('[REDACTED:');
  });

  it("another project's session is refused unless asked for; nothing under the sessions root changed", async () => {
    const other = results.get('c-other')!;
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/no session .* among sessions started in /);
    expect(results.get('c-other-all')!.isError).toBe(false);
    expect(results.get('c-other-all')!.details.sessionId).toBe(sibling.sessionId);
    const after = await hashTree(sessionsRoot);
    // pi wrote its own new session (this conversation) there; the sessions that were there are unchanged.
    for (const [path, hash] of before) expect(after.get(path)).toBe(hash);
  });
});

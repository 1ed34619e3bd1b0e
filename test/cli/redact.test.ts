import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli';
import { writePlantedSession } from '../fixtures/secrets/session';
import { hashTree, header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';
import { redactSnippet } from '../../electron/secrets/rules/redact-snippet';
import { leaks } from '../fixtures/secrets/leaks';

beforeEach(async () => {
  vi.stubEnv('PI_CODING_AGENT_DIR', await tempDir('canopy-agent-'));
  vi.stubEnv('CANOPY_CACHE_DIR', await tempDir('canopy-cache-'));
  vi.stubEnv('CANOPY_DATA_DIR', await tempDir('canopy-data-'));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

// Queries whose snippets reach into each planted secret: the words beside it, and the secret itself.
const QUERIES = [
  'here',
  'config',
  'aws_secret_access_key',
  'github.com',
  'SLACK_BOT',
  'BEGIN RSA',
  'Bearer',
  'DATABASE_URL',
  'SERVICE_API_TOKEN',
  're:ghp_',
  'remember',
];

describe('canopy search --redact and canopy context --redact', () => {
  it('search snippets hold no planted secret, whole or cut, and the match still points into the snippet', async () => {
    const root = await tempDir('canopy-root-');
    const s = await writePlantedSession(join(root, '--work-proj--'));
    const before = await hashTree(root);
    let plain = '';
    let hits = 0;
    for (const q of QUERIES) {
      const raw = await cli('search', q, '--root', root, '--json', '--limit', '200');
      plain += raw.json.map((h) => h.snippet).join('\n');
      const r = await cli('search', q, '--root', root, '--json', '--limit', '200', '--redact');
      expect(r.code, q).toBe(0);
      // The same hits in the same order; only snippets (and their match offsets) change.
      expect(r.json.map((h) => [h.entryId, h.line])).toEqual(raw.json.map((h) => [h.entryId, h.line]));
      for (const h of r.json) {
        hits++;
        for (const p of s.plants)
          expect(leaks(h.snippet as string, p.value), `${q}: ${p.family}: ${h.snippet}`).toBe(false);
        const [a, b] = h.match as [number, number];
        expect(0 <= a && a <= b && b <= (h.snippet as string).length).toBe(true);
      }
    }
    expect(hits).toBeGreaterThan(40);
    // Without --redact the same snippets do show them (the check above can fail).
    expect(s.plants.filter((p) => leaks(plain, p.value)).length).toBeGreaterThan(20);
    expect(await hashTree(root)).toEqual(before);
  });

  it('context --redact: the messages at a leaf without any planted secret; without it they are there', async () => {
    const root = await tempDir('canopy-root-');
    const s = await writePlantedSession(join(root, '--work-proj--'));
    const plain = await cli('context', s.path, '--leaf', s.mainLeaf, '--json');
    const r = await cli('context', s.path, '--leaf', s.mainLeaf, '--json', '--redact');
    expect(r.code).toBe(0);
    expect(r.json[0]!.pathIds).toEqual(plain.json[0]!.pathIds);
    const text = JSON.stringify(r.json[0]!.context);
    // Compared as JSON text: the private key's newlines are escaped there.
    const inJson = (v: string) => JSON.stringify(v).slice(1, -1);
    for (const p of s.plants) expect(text.includes(inJson(p.value)), p.family).toBe(false);
    expect(text).toContain('[REDACTED:');
    // Custom entries never reach the model; every other place does.
    const sent = s.plants.filter((p) => p.place !== 'custom entry');
    expect(sent.every((p) => JSON.stringify(plain.json[0]!.context).includes(inJson(p.value)))).toBe(true);
  });

  it('search --cwd keeps to the sessions started in that folder (not one whose cwd merely contains it)', async () => {
    const root = await tempDir('canopy-root-');
    const a = await writeSession(join(root, projectDirName('/work/proj')), 'a.jsonl', [
      header('s1', '/work/proj'),
      user('u1', null, 'branch point'),
    ]);
    const b = await writeSession(join(root, projectDirName('/work/proj2')), 'b.jsonl', [
      header('s2', '/work/proj2'),
      user('u2', null, 'branch point'),
    ]);
    const all = await cli('search', 'branch point', '--root', root, '--json');
    expect(new Set(all.json.map((h) => h.path))).toEqual(new Set([a, b]));
    const mine = await cli('search', 'branch point', '--root', root, '--json', '--cwd', '/work/proj');
    expect(mine.json.map((h) => h.path)).toEqual([a]);
    expect((await cli('search', 'branch point', '--root', root, '--cwd', '/nowhere')).code).toBe(1);
  });
});

describe('redactSnippet', () => {
  const secret = { value: 'ghp_abcdefghijklmnop', rule: 'github' };
  it('replaces a whole secret and moves the match after it', () => {
    const r = redactSnippet('token ghp_abcdefghijklmnop and more', [31, 35], [secret], []);
    expect(r.snippet).toBe('token [REDACTED:github] and more');
    expect(r.snippet.slice(...r.match)).toBe('more');
  });
  it('replaces the tail a cut start shows and the head a cut end shows', () => {
    expect(redactSnippet('…ijklmnop done', [10, 14], [secret], []).snippet).toBe('…[REDACTED:github] done');
    expect(redactSnippet('set ghp_abcd…', [0, 3], [secret], []).snippet).toBe('set [REDACTED:github]…');
  });
  it('a match inside a secret becomes the marker', () => {
    const r = redactSnippet('x ghp_abcdefghijklmnop y', [2, 6], [secret], []);
    expect(r.snippet.slice(...r.match)).toBe('[REDACTED:github]');
  });
});

/**
 * Redaction leaves nothing: a secret planted in every field an export can carry — the session's
 * name, its file name, header id and cwd, entry ids and parent links, a label's target, object keys,
 * signature-like fields, image data, custom data — is absent from every format's output (read back
 * and searched for the raw value), and a redacted JSONL still joins every parent link.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli';
import { plantedSecrets } from '../fixtures/secrets/planted';
import { Rng } from '../fixtures/corpus/rng';
import { assistant, entry, header, tempDir, user, writeSession } from '../repo/helpers';

let dir: string;
let path: string;
let secret: string;
/** Real pixels (a PNG's signature and header, base64): kept as they are, never scanned. */
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(4000, 7)]).toString(
  'base64',
);

beforeEach(async () => {
  vi.stubEnv('PI_CODING_AGENT_DIR', await tempDir('canopy-agent-'));
  vi.stubEnv('CANOPY_CACHE_DIR', await tempDir('canopy-cache-'));
  vi.stubEnv('CANOPY_DATA_DIR', await tempDir('canopy-data-'));
  secret = plantedSecrets(new Rng(39)).find((p) => p.rule === 'github')!.value;
  dir = join(await tempDir('canopy-root-'), '--work-proj--');
  mkdirSync(dir);
  const s = secret;
  const u1 = user(`u-${s}`, 'info', 'first question');
  const a1 = assistant('a1', `u-${s}`, 'an answer');
  const content = (a1.message as { content: unknown[] }).content;
  content.push(
    { type: 'thinking', thinking: 'hmm', thinkingSignature: s },
    { type: 'text', text: 'signed', signature: s, textSignature: s },
    { type: 'toolCall', id: 'call1', name: 'bash', arguments: { [s]: 'value', command: 'ls' } },
  );
  (a1.message as Record<string, unknown>).encrypted_content = s;
  const u2 = user('u2', 'a1', 'look at this');
  (u2.message as { content: unknown[] }).content.push(
    { type: 'image', data: `iVBORw0 ${s}`, mimeType: 'image/png' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
  );
  path = await writeSession(dir, `2026-03-01T10-00-00-000Z_${s}.jsonl`, [
    header(`sess-${s}`, `/home/alice/${s}/proj`),
    entry('session_info', 'info', null, { name: `deploy with ${s}` }),
    u1,
    a1,
    u2,
    entry('label', 'lab', 'u2', { targetId: `u-${s}`, label: `note ${s}` }),
    entry('custom', 'cus', 'lab', { customType: 'ext', data: { [s]: { nested: s } } }),
  ]);
});
afterEach(() => vi.unstubAllEnvs());

describe('canopy export --redact: every field', () => {
  it.each(['html', 'md', 'jsonl'])(
    '%s: the planted value appears nowhere, in the branch or all entries',
    async (format) => {
      const plain = await cli('export', path, '--format', format, '--all');
      expect(plain.code).toBe(0);
      expect(plain.out).toContain(secret); // it was there to be found
      for (const scope of [['--all'], []]) {
        const out = join(dir, '..', `out-${format}-${scope.length}.${format}`);
        const r = await cli('export', path, '--format', format, '--redact', '--out', out, ...scope);
        expect(r.code, r.err).toBe(0);
        const text = readFileSync(out, 'utf8');
        expect(text).not.toContain(secret);
        expect(r.out + r.err).not.toContain(secret);
        expect(text).toContain('[REDACTED:github');
        if (format === 'jsonl') {
          const lines = text
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>);
          expect(text).toContain(`"data":"${PNG}"`);
          const ids = new Set(lines.map((l) => l.id));
          for (const l of lines.slice(1))
            if (l.parentId !== null) expect(ids.has(l.parentId), String(l.parentId)).toBe(true);
        }
      }
    },
  );
});

describe('a catastrophic user regex', () => {
  it('(a+)+$ runs in linear time: the export ends, the match is redacted (a backtracking engine never ends here)', async () => {
    writeFileSync(
      join(process.env.CANOPY_DATA_DIR!, 'redactions.json'),
      JSON.stringify({ literals: [], regexes: ['(a+)+$', '/(?<word>ZZ+)/i'] }),
    );
    const long = await writeSession(dir, 'long.jsonl', [
      header('long', '/p'),
      user('l1', null, `${'a'.repeat(20_000)}b`),
      user('l2', 'l1', `tail ${'a'.repeat(64)}`),
      user('l3', 'l2', 'shout zzzz'),
    ]);
    const r = await cli('export', long, '--format', 'md', '--redact');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${'a'.repeat(20_000)}b`);
    expect(r.out).toContain('tail [REDACTED:custom]');
    expect(r.out).toContain('shout [REDACTED:custom]');
  });

  it('a pattern RE2 cannot run (a backreference) is refused in one line naming it', async () => {
    writeFileSync(
      join(process.env.CANOPY_DATA_DIR!, 'redactions.json'),
      JSON.stringify({ literals: [], regexes: ['(x)\\1'] }),
    );
    const r = await cli('export', path, '--format', 'md', '--redact');
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/redaction pattern "\(x\)\\\\1" is not supported/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});

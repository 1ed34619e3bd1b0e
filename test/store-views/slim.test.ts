/**
 * `canopy slim`: pi's own SessionManager reads the slim copy to the same leaf, path and context as
 * the source, apart from the replaced blocks; the source is byte-for-byte unchanged.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { withDeterminism } from '../fixtures/corpus/determinism';
import { loadPi, type CaSessionManager } from '../oracle/pi-modules';

let tmp: string;
let dir: string;
let source: string;
const IMAGE = 'iVBORw0KGgoAAAANSUhEUg'.repeat(5000); // ~110 KB of base64
const OUTPUT = 'line of tool output\n'.repeat(20_000); // 400 KB

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

async function writeSource(): Promise<string> {
  const pi = await loadPi();
  return withDeterminism(7, async (det) => {
    det.clock.set(Date.UTC(2026, 10, 1));
    const sm: CaSessionManager = pi.ca.SessionManager.create('/home/alice/proj', dir);
    const now = () => det.clock.now();
    const usage = {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 },
    };
    const assistant = (content: unknown[]) => ({
      role: 'assistant',
      content,
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage,
      stopReason: content.some((c: any) => c.type === 'toolCall') ? 'toolUse' : 'stop',
      timestamp: now(),
    });
    sm.appendMessage({
      role: 'user',
      content: [
        { type: 'text', text: 'look at this' },
        { type: 'image', data: IMAGE, mimeType: 'image/png' },
      ],
      timestamp: now(),
    });
    sm.appendMessage(assistant([{ type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'shot.png' } }]));
    sm.appendMessage({
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'read',
      content: [
        { type: 'text', text: OUTPUT },
        { type: 'image', data: IMAGE, mimeType: 'image/jpeg' },
      ],
      isError: false,
      timestamp: now(),
    });
    const keep = sm.appendMessage(assistant([{ type: 'text', text: 'I see it' }]));
    sm.appendMessage({ role: 'user', content: 'abandoned question', timestamp: now() });
    sm.appendMessage(assistant([{ type: 'text', text: 'abandoned answer' }]));
    sm.branch(keep);
    sm.appendMessage({
      role: 'bashExecution',
      command: 'cat big.log',
      output: OUTPUT,
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: now(),
    });
    sm.appendMessage({ role: 'user', content: 'and now?', timestamp: now() });
    sm.appendMessage(assistant([{ type: 'text', text: 'done' }]));
    return sm.getSessionFile()!;
  });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-slim-'));
  dir = join(tmp, 'sessions', '--home-alice-proj--');
  mkdirSync(dir, { recursive: true });
  source = await writeSource();
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** pi's reading of a file (opened from a copy: SessionManager.open may rewrite what it opens). */
async function piRead(file: string) {
  const pi = await loadPi();
  mkdirSync(join(tmp, 'scratch'), { recursive: true });
  const scratch = join(tmp, 'scratch', `read-${Math.random().toString(36).slice(2)}.jsonl`);
  copyFileSync(file, scratch);
  const sm = pi.ca.SessionManager.open(scratch, join(tmp, 'scratch-dir'));
  return {
    header: sm.getHeader()!,
    leaf: sm.getLeafId(),
    path: sm.getBranch().map((e) => e.id),
    context: JSON.parse(JSON.stringify(sm.buildSessionContext())) as { messages: any[] },
  };
}

/** The context with image blocks, and slim's notes for them, as one placeholder; long texts cut to `head`. */
function normalise(context: { messages: any[] }, head = Infinity): unknown {
  return context.messages.map((m) => {
    const cut = (t: string) => (t.length > head ? t.slice(0, head) : t);
    const out = { ...m };
    if (Array.isArray(m.content)) {
      out.content = m.content.map((c: any) => {
        if (c.type === 'image') return 'IMAGE';
        if (
          c.type === 'text' &&
          /^\[image removed by canopy slim: image\/(png|jpeg), [\d.]+ KiB, source line \d+\]$/.test(c.text)
        )
          return 'IMAGE';
        if (c.type === 'text' && m.role === 'toolResult') return { ...c, text: cut(c.text) };
        return c;
      });
    }
    if (typeof m.output === 'string') out.output = cut(m.output);
    return out;
  });
}

describe('canopy slim', () => {
  it('writes a new session that pi reads to the same leaf, path and context apart from the images', async () => {
    const before = sha(source);
    const run = await cli('slim', source, '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const r = run.json[0]!;
    expect(r.file).toBe(source);
    expect(r.imagesRemoved).toBe(2);
    expect(r.bytesBefore).toBe(readFileSync(source).length);
    expect(r.bytesAfter).toBe(readFileSync(r.path).length);
    expect(r.bytesAfter).toBeLessThan(r.bytesBefore - 2 * IMAGE.length + 1000);
    expect(sha(source)).toBe(before);
    // Only the source and the copy: the temp file is gone.
    expect(readdirSync(dir).sort()).toEqual([source, r.path].map((p) => p.slice(dir.length + 1)).sort());

    const src = await piRead(source);
    const slim = await piRead(r.path);
    expect(slim.header.parentSession).toBe(source);
    expect(slim.header.id).not.toBe(src.header.id);
    expect(slim.header.cwd).toBe(src.header.cwd);
    expect(slim.leaf).toBe(src.leaf);
    expect(slim.path).toEqual(src.path);
    expect(normalise(slim.context)).toEqual(normalise(src.context));
    expect(JSON.stringify(slim.context)).not.toContain(IMAGE.slice(0, 200));
    // Each note names the line the image was on.
    const lines = readFileSync(source, 'utf8').split('\n');
    const firstUser = slim.context.messages[0];
    const note = firstUser.content[1].text as string;
    expect(note).toMatch(/^\[image removed by canopy slim: image\/png, 80\.6 KiB, source line (\d+)\]$/);
    const lineNo = Number(/source line (\d+)/.exec(note)![1]);
    expect(lines[lineNo - 1]).toContain(IMAGE);
    expect(lines[lineNo - 1]).toContain('look at this');
    // Lines without images are copied byte for byte.
    const slimLines = readFileSync(r.path, 'utf8').split('\n');
    expect(slimLines.length).toBe(lines.length);
    lines.forEach((l, i) => {
      if (i > 0 && !l.includes(IMAGE)) expect(slimLines[i]).toBe(l);
    });
  });

  it('cuts tool and bash outputs over --max-output to their head with a note, keeping images unless asked', async () => {
    const run = await cli('slim', source, '--max-output', '1000', '--json');
    expect(run.code).toBe(0);
    const r = run.json[0]!;
    expect(r.imagesRemoved).toBe(0);
    expect(r.outputsCut).toBe(2);
    const src = await piRead(source);
    const slim = await piRead(r.path);
    expect(slim.path).toEqual(src.path);
    // --max-output counts stored bytes (an escaped newline is two): at least 500 characters stay.
    expect(normalise(slim.context, 500)).toEqual(normalise(src.context, 500));
    const tool = slim.context.messages.find((m) => m.role === 'toolResult');
    expect(tool.content[0].text).toMatch(
      /^(line of tool output\n)+line of tool \n\[\.\.\. 409\.2 KiB of output removed by canopy slim \(--max-output 1000\), source line \d+\]$/,
    );
    expect(JSON.stringify(tool.content[0].text.split('\n[...')[0]).length - 2).toBeLessThanOrEqual(1000);
    const both = await cli('slim', source, '--max-output', '1000', '--drop-images', '--json');
    expect(both.json[0]!.imagesRemoved).toBe(2);
  });

  it('refuses what is no v3 session, leaving no file, and goes on with the other files', async () => {
    const bad = join(tmp, 'notes.jsonl');
    writeFileSync(bad, '{"hello":1}\n');
    const run = await cli('slim', bad, source, '--json');
    expect(run.code).toBe(1);
    expect(run.json[0]!.error.message).toMatch(/session header/);
    expect(run.json[1]!.path).toBeTruthy();
    expect(readdirSync(tmp).filter((f) => f.endsWith('.jsonl'))).toEqual(['notes.jsonl']);
    expect((await cli('slim', source, '--max-output', 'lots')).code).toBe(2);
  });

  it('streams a file larger than its write-ahead queue: every line but the header copied exactly', async () => {
    const big = join(tmp, 'big', '--p--');
    mkdirSync(big, { recursive: true });
    const file = join(big, '2026-11-01T00-00-00-000Z_big.jsonl');
    const header = JSON.stringify({
      type: 'session',
      version: 3,
      id: 'big',
      timestamp: '2026-11-01T00:00:00.000Z',
      cwd: '/p',
    });
    const lines = [header];
    const shot = 'A'.repeat(3 * 1024 * 1024);
    for (let i = 0; i < 12; i++) {
      const content = [
        { type: 'text', text: `shot ${i}` },
        { type: 'image', data: shot, mimeType: 'image/png' },
      ];
      lines.push(
        JSON.stringify({
          type: 'message',
          id: `e${i}`,
          parentId: i ? `e${i - 1}` : null,
          timestamp: '2026-11-01T00:00:01.000Z',
          message: { role: 'user', content, timestamp: 1 },
        }),
      );
    }
    writeFileSync(file, lines.join('\n') + '\n');
    const kept = await cli('slim', file, '--max-output', '100000', '--json');
    expect(kept.json[0]!.imagesRemoved).toBe(0);
    const out = readFileSync(kept.json[0]!.path, 'utf8').split('\n');
    expect(out.slice(1)).toEqual([...lines.slice(1), '']);
    const dropped = await cli('slim', file, '--json');
    expect(dropped.json[0]!.imagesRemoved).toBe(12);
    expect(dropped.json[0]!.bytesAfter).toBeLessThan(10_000);
  });
});

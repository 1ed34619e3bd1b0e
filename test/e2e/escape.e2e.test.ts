/**
 * End to end: nothing outside the session roots can be reached through `canopy serve` — not by a
 * crafted id, not by a path argument, not by a session file that is a symlink to somewhere else,
 * not by a static-file URL. Skipped, with the reason printed, where /usr/bin/chromium is missing.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionListDto } from '../../electron/shared/dto';
import { HAVE_CHROMIUM, deepLink, startHarness, type Harness } from './harness';

const SECRET = 'sk-canopy-e2e-secret-never-shown';
const OUTSIDE_ID = '019c0000-0000-7000-8000-0000000e5c4e';

function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

if (!HAVE_CHROMIUM)
  console.warn('[skipped] path-escape e2e: no Chromium at /usr/bin/chromium (apt-get install chromium)');

describe.skipIf(!HAVE_CHROMIUM)('path escapes through canopy serve', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 2 });
    // A session file outside every root, reachable only through a symlink inside one.
    const outside = mkdtempSync(join(tmpdir(), 'canopy-outside-'));
    const secretFile = join(outside, 'secret.jsonl');
    writeFileSync(
      secretFile,
      [
        { type: 'session', version: 3, id: OUTSIDE_ID, timestamp: '2026-03-01T10:00:00.000Z', cwd: '/outside' },
        {
          type: 'message',
          id: 'u1',
          parentId: null,
          timestamp: '2026-03-01T10:00:01.000Z',
          message: { role: 'user', content: SECRET, timestamp: 1 },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const proj = join(h.sessionsDir, '--outside--');
    mkdirSync(proj, { recursive: true });
    symlinkSync(secretFile, join(proj, 'link.jsonl'));
  }, 180_000);
  afterAll(() => h?.close());

  it('refuses ids that look like paths and arguments that are paths', async () => {
    for (const sessionId of ['../../../etc/passwd', '/etc/passwd', `${OUTSIDE_ID}/../x`]) {
      const r = await h.api('session.open', { sessionId });
      expect(r.body).toMatchObject({ ok: false, error: { code: 'not_found' } });
    }
    const byPath = await h.api('session.open', { path: '/etc/passwd' });
    expect(byPath.body).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('never lists, opens or summarises a session file that resolves outside the roots', async () => {
    const list = await h.call<SessionListDto>('sessions.list', {});
    expect(list.sessions.some((s) => s.sessionId === OUTSIDE_ID)).toBe(false);
    expect(list.skipped.find((s) => s.path.endsWith('link.jsonl'))?.error.code).toBe('outside_roots');
    for (const [channel, args] of [
      ['session.open', { sessionId: OUTSIDE_ID }],
      ['entry.get', { sessionId: OUTSIDE_ID, entryId: 'u1' }],
      ['session.context', { sessionId: OUTSIDE_ID }],
      ['session.forkPreview', { sessionId: OUTSIDE_ID, request: { kind: 'clone' } }],
    ] as const) {
      const r = await h.api(channel, args);
      expect(r.body, channel).toMatchObject({ ok: false, error: { code: 'not_found' } });
    }
    const summaries = await h.call<Record<string, unknown>>('sessions.summaries', { sessionIds: [OUTSIDE_ID] });
    expect(summaries).toEqual({});
    expect(JSON.stringify(list)).not.toContain(SECRET);
  });

  it('serves no file outside the built renderer', async () => {
    for (const path of [
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2f..%2fpackage.json',
    ]) {
      const r = await rawGet(h.server.port, path);
      expect(r.body).not.toContain('root:x:0:0');
      expect(r.body).not.toContain('"devDependencies"');
    }
  });

  it('shows the refusal in the UI and never the file', async () => {
    await h.page.goto(`${h.origin}/?token=${encodeURIComponent(h.server.token)}`);
    await h.page.waitForSelector('[data-testid="session-row"]');
    await h.page.goto(deepLink(h.origin, OUTSIDE_ID));
    await h.page.waitForSelector('[data-testid="session-row"]');
    await h.page.waitForFunction(() => /no session/i.test(document.body.innerText));
    expect(await h.page.textContent('body')).not.toContain(SECRET);
    await h.shot('30-path-escape-refused');
  });
});

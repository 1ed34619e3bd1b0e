import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { validators } from '../../electron/shared/validate';
import { writePlantedSession } from '../fixtures/secrets/session';
import { hashTree, projectDirName, tempDir } from '../repo/helpers';

let services: AppServices | undefined;
// Awaited: the workers' last writes to the cache folder end before it is removed.
afterEach(() => services?.close());

async function setUp() {
  const root = await tempDir('canopy-share-root-');
  const env = {
    CANOPY_CACHE_DIR: await tempDir('canopy-share-cache-'),
    CANOPY_DATA_DIR: await tempDir('canopy-share-data-'),
  };
  const s = await writePlantedSession(join(root, projectDirName('/work/proj')), 6);
  services = createAppServices({ roots: [root], transport: 'http', watch: false, env });
  const h = services.handlers;
  const listing = await h['sessions.list']({});
  const sessionId = listing.sessions.find((r) => r.path === s.path)!.sessionId;
  await services.secrets.idle();
  return { root, s, h, sessionId };
}

describe('the secrets and export channels', () => {
  it('scan in the background after listing; findings are masked; a value is revealed only on request', async () => {
    const { root, s, h, sessionId } = await setUp();
    const before = await hashTree(root);
    expect(await h['secrets.status']({})).toMatchObject({ scanning: false, done: 1, total: 1, withFindings: 1 });
    expect((await h['secrets.counts']({}))[sessionId]).toBeGreaterThanOrEqual(s.plants.length);
    const found = await h['secrets.session']({ sessionId });
    expect(found.scanned).toBe(true);
    const wire = JSON.stringify(found);
    for (const p of s.plants) expect(wire).not.toContain(p.value);
    const i = found.findings.findIndex((f) => f.rule === 'github');
    const github = s.plants.find((p) => p.rule === 'github' && p.entryId === found.findings[i]!.entryId)!;
    expect((await h['secrets.reveal']({ sessionId, index: i })).value).toBe(github.value);
    await expect(h['secrets.reveal']({ sessionId, index: 99_999 })).rejects.toMatchObject({ code: 'not_found' });
    expect(await hashTree(root)).toEqual(before);
  });

  it('preview lists every replacement masked; serve writes a download and records it in the ledger', async () => {
    const { s, h, sessionId } = await setUp();
    const req = { sessionId, format: 'html' as const, redact: true };
    const preview = await h['export.preview'](req);
    expect(preview.replacements.length).toBeGreaterThanOrEqual(s.plants.length);
    expect(preview.suggestedName).toMatch(/\.redacted\.html$/);
    for (const p of s.plants) expect(JSON.stringify(preview)).not.toContain(p.value);
    const written = await h['export.write'](req);
    expect(written.writtenTo).toBeNull();
    for (const p of s.plants) expect(written.content).not.toContain(p.value);
    expect(await h['export.ledger']({})).toEqual([
      expect.objectContaining({ sessionId: s.sessionId, format: 'html', redacted: true, writtenTo: 'download' }),
    ]);
    // The user's redactions are kept and used; a bad regex is refused with its reason.
    await h['redactions.set']({ literals: ['set up the deploy'], regexes: [] });
    expect((await h['export.write']({ ...req, format: 'md' })).content).not.toContain('set up the deploy');
    await expect(h['redactions.set']({ literals: [], regexes: ['a('] })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('validate the arguments', () => {
    expect(() => validators['export.write']({ sessionId: 'x', format: 'pdf', redact: true })).toThrow(/format must be/);
    expect(() => validators['export.preview']({ sessionId: 'x', format: 'md' })).toThrow(/redact must be a boolean/);
    expect(() => validators['export.preview']({ sessionId: 'x', format: 'md', redact: true, path: '/etc' })).toThrow(
      /unexpected argument "path"/,
    );
    expect(() => validators['secrets.reveal']({ sessionId: 'x', index: -1 })).toThrow(/index must be/);
    expect(() => validators['redactions.set']({ literals: [''], regexes: [] })).toThrow(/non-empty/);
  });
});

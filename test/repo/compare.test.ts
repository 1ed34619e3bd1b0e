/** session.compare through the app's handlers: listed sessions by id, a fork of the family, bad arguments. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import type { Handlers } from '../../electron/shared/contract';
import { writeFamily, type Family } from '../core/compare-sessions';

let fam: Family;
let handlers: Handlers;
let mainId: string;
let forkId: string;

beforeAll(async () => {
  fam = await writeFamily();
  handlers = createAppServices({ roots: [fam.dir], transport: 'http', watch: false }).handlers;
  const { sessions } = await handlers['sessions.list']({});
  mainId = sessions.find((s) => fam.file.endsWith(s.fileName))!.sessionId;
  forkId = sessions.find((s) => fam.forkFile.endsWith(s.fileName))!.sessionId;
});
afterAll(() => fam.cleanup());

describe('session.compare', () => {
  it('compares two leaves of one session', async () => {
    const c = await handlers['session.compare']({
      a: { sessionId: mainId, leafId: fam.leafA },
      b: { sessionId: mainId, leafId: fam.leafB },
    });
    expect(c.ancestorId).toBe(fam.ancestorId);
    expect(c.sides.map((s) => s.sessionId)).toEqual([mainId, mainId]);
    expect(c.sides[1].files.map((f) => f.path)).toEqual(['src/a.ts']);
  });

  it("compares with a fork's current leaf when B names no leaf", async () => {
    const c = await handlers['session.compare']({
      a: { sessionId: mainId, leafId: fam.leafA },
      b: { sessionId: forkId },
    });
    expect(c.ancestorId).toBe(fam.ancestorId);
    expect(c.sides[1].leafId).toBe(fam.forkLeaf);
    expect(c.sides[1].entryIds.at(-1)).toBe(fam.forkLeaf);
  });

  it('answers not_found for an unknown leaf and invalid_argument for bad arguments', async () => {
    const unknown = await dispatch(handlers, 'session.compare', {
      a: { sessionId: mainId, leafId: 'nope' },
      b: { sessionId: mainId },
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const bad = await dispatch(handlers, 'session.compare', { a: { sessionId: mainId, path: '/etc' }, b: {} });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });
});

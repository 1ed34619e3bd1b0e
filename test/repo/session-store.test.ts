/**
 * The session store: one per catalog (two catalogs share nothing), sessions evicted by their
 * estimated bytes, least recently used first, and no module-level state left in electron/repo.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../electron/repo/catalog';
import { SessionStore } from '../../electron/repo/session-store';
import { assistant, branchedSession, header, projectDirName, tempDir, user, writeSession } from './helpers';
import { sessionsOf } from './helpers';

const ID = '019c0000-0000-7000-8000-000000000001';

async function oneSession(): Promise<{ root: string; path: string }> {
  const root = await tempDir('canopy-store-');
  const path = await writeSession(
    join(root, projectDirName('/home/alice/proj')),
    `2026-03-01T10-00-00-000Z_${ID}.jsonl`,
    branchedSession(),
  );
  return { root, path };
}

/** A session of `n` exchanges, each answer `size` characters long. */
async function sized(dir: string, name: string, n: number, size: number): Promise<string> {
  const lines = [header(name, '/p')];
  for (let i = 0; i < n; i++)
    lines.push(user(`u${i}`, i === 0 ? null : `a${i - 1}`, `q${i}`), assistant(`a${i}`, `u${i}`, 'x'.repeat(size)));
  return writeSession(dir, `${name}.jsonl`, lines);
}

describe('SessionStore', () => {
  it('is one per catalog: two catalogs over the same file open it each in their own store', async () => {
    const { root, path } = await oneSession();
    const a = new SessionCatalog({ roots: [root] });
    const b = new SessionCatalog({ roots: [root] });
    await a.list();
    await b.list();
    await sessionsOf(a).graph(ID);
    expect(a.store.paths()).toEqual([path]);
    expect(b.store.paths()).toEqual([]);
    await sessionsOf(b).graph(ID);
    const [inA, inB] = [await a.store.ifOpen(path), await b.store.ifOpen(path)];
    expect(inA).toBeDefined();
    expect(inB).toBeDefined();
    expect(inA).not.toBe(inB);
    expect(inA!.bodies).not.toBe(inB!.bodies);
    // Closing one catalog leaves the other's session open and answering.
    a.close();
    expect(a.store.paths()).toEqual([]);
    expect(b.store.paths()).toEqual([path]);
    expect((await sessionsOf(b).get(ID).entry('u1')).entryId).toBe('u1');
  });

  it('keeps a session open until its file changes (one stat per open), then reads only what was appended', async () => {
    const { path } = await oneSession();
    const store = new SessionStore();
    const first = await store.session(path);
    expect(await store.session(path)).toBe(first);
    expect(store.bytes()).toBe(first.bytes);
    expect(first.bytes).toBeGreaterThan(0);
  });

  it('evicts by estimated bytes, least recently used first, and keeps the session in use whatever its size', async () => {
    const dir = await tempDir('canopy-evict-');
    const small = await Promise.all(['s1', 's2', 's3'].map((n) => sized(dir, n, 20, 10)));
    const probe = new SessionStore();
    const one = await probe.session(small[0]!);
    await one.bodies.previews(one.live.session);
    const each = one.bytes;
    // Room for two sessions with their previews, not three.
    const store = new SessionStore({ budgetBytes: Math.floor(each * 2.5) });
    const withPreviews = (p: string) => store.with(p, (s, open) => open.bodies.previews(s));
    await withPreviews(small[0]!);
    await withPreviews(small[1]!);
    expect(store.paths()).toEqual([small[0], small[1]]);
    await withPreviews(small[0]!);
    await withPreviews(small[2]!);
    // s2 was used least recently.
    expect(store.paths()).toEqual([small[0], small[2]]);
    expect(store.bytes()).toBeLessThanOrEqual(Math.floor(each * 2.5));

    // Many sessions under a budget that holds them all by count stay open; bytes decide, not count.
    const roomy = new SessionStore({ budgetBytes: each * 10 });
    for (const p of small) await roomy.session(p);
    expect(roomy.paths()).toHaveLength(3);

    // A session bigger than the whole budget is kept while it is the one in use.
    const big = await sized(dir, 'big', 200, 2000);
    const tight = new SessionStore({ budgetBytes: 1 });
    await tight.session(small[0]!);
    const open = await tight.session(big);
    await open.bodies.previews(open.live.session);
    expect(tight.paths()).toEqual([big]);
  });

  it('cancels the flags pass of the session the user left when another one is opened', async () => {
    const dir = await tempDir('canopy-switch-');
    const proj = join(dir, projectDirName('/p'));
    await sized(proj, 'big', 2000, 2000);
    await sized(proj, 'other', 2, 10);
    const catalog = new SessionCatalog({ roots: [dir], lazyAboveBytes: 1024 });
    await catalog.list();
    await sessionsOf(catalog).graph('big');
    const flags = sessionsOf(catalog)
      .flags('big')
      .catch((err: unknown) => err);
    await sessionsOf(catalog).graph('other');
    expect(await flags).toMatchObject({ code: 'cancelled' });
    // Asked again (the user came back), the pass runs to its end.
    expect((await sessionsOf(catalog).flags('big')).entries.ids).toHaveLength(4000);
  });
});

/** Top-level declarations of a module that hold mutable state: `let`/`var`, or a const made with `new`, `[…]` or `{…}`. */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const st of source.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      let init = d.initializer;
      while (
        init &&
        (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))
      ) {
        // `as const` makes a literal read-only.
        if (ts.isAsExpression(init) && init.type.getText() === 'const') init = undefined;
        else init = init.expression;
      }
      const mutable =
        !isConst ||
        (init !== undefined &&
          (ts.isNewExpression(init) || ts.isArrayLiteralExpression(init) || ts.isObjectLiteralExpression(init)));
      if (mutable) out.push(`${file}: ${d.name.getText()}`);
    }
  }
  return out;
}

describe('electron/repo', () => {
  it("holds no module-level mutable state (but in a worker entry: its state is its thread's)", () => {
    const dir = join(__dirname, '../../electron/repo');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('-worker.ts'))
      .map((f) => join(dir, f));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(moduleState)).toEqual([]);
  });

  it('the check finds such state', async () => {
    const dir = await tempDir('canopy-state-');
    const file = await writeSession(dir, 'x.ts', [
      'const cache = new Map<string, number>();',
      'let n = 0;',
      'const LIMIT = 8;',
      "const KINDS = ['a'] as const;",
    ]);
    expect(moduleState(file).map((s) => s.split(': ')[1])).toEqual(['cache', 'n']);
  });
});

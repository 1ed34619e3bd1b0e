import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph';

// Components reach main only through the store's actions (renderer/src/store/*-actions.ts): one
// place sequences requests, handles errors and keeps the state they answer.
const root = join(__dirname, '..', '..');
/** Components that may still call the api themselves. Do not add to this list. */
const ALLOWED = new Set<string>([]);

export function callsApi(text: string): boolean {
  return /\bapi\[['"]|\bapi\.on\(|\{\s*api\s*[,}][^=]*=\s*useServices\(\)/.test(text);
}

describe('the renderer calls the api only from the store', () => {
  it('no file outside renderer/src/store calls the api (components, hooks and lib alike)', () => {
    const calling = sourceFiles(root, 'renderer/src')
      .filter((f) => !f.startsWith('renderer/src/store/'))
      .filter((f) => !ALLOWED.has(f) && callsApi(readFileSync(join(root, f), 'utf8')));
    expect(calling).toEqual([]);
  });

  it('recognises a call', () => {
    expect(callsApi("const { api } = useServices();\nawait api['entry.payload']({})")).toBe(true);
    expect(callsApi("const r = await api['session.find']({ idOrPath })")).toBe(true);
    expect(callsApi('const { store } = useServices();')).toBe(false);
  });
});

// One store: a second zustand store (the export dialog's was one) splits state from its actions.
export function makesStore(text: string): boolean {
  return /from ['"]zustand(\/vanilla)?['"]/.test(text) && /\bcreate(Store)?\s*[<(]/.test(text);
}

describe('the renderer has one store', () => {
  it('only renderer/src/store/index.ts makes a zustand store', () => {
    const making = sourceFiles(root, 'renderer/src').filter((f) => makesStore(readFileSync(join(root, f), 'utf8')));
    expect(making).toEqual(['renderer/src/store/index.ts']);
  });

  it('recognises a store being made', () => {
    expect(makesStore("import { createStore } from 'zustand/vanilla';\nconst s = createStore(() => ({}));")).toBe(true);
    expect(makesStore("import { create } from 'zustand';\nconst useX = create<X>()(() => ({}));")).toBe(true);
    expect(makesStore("import { useStore } from 'zustand';\nuseStore(store, (s) => s.x);")).toBe(false);
  });
});

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
  it('no component outside renderer/src/store (and lib) calls the api', () => {
    const calling = sourceFiles(root, 'renderer/src')
      .filter((f) => !f.startsWith('renderer/src/store/') && !f.startsWith('renderer/src/lib/'))
      .filter((f) => !ALLOWED.has(f) && callsApi(readFileSync(join(root, f), 'utf8')));
    expect(calling).toEqual([]);
  });

  it('recognises a call', () => {
    expect(callsApi("const { api } = useServices();\nawait api['entry.payload']({})")).toBe(true);
    expect(callsApi("const r = await api['session.find']({ idOrPath })")).toBe(true);
    expect(callsApi('const { store } = useServices();')).toBe(false);
  });
});

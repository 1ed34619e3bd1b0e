import { describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../electron/shared/contract';

// The real preload entry against a fake `electron` module: it must expose exactly one object,
// `api`, built from the contract, through contextBridge (never on window directly).
const exposed: Array<[string, unknown]> = [];
const invoked: Array<[string, unknown]> = [];
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.push([key, value]) },
  ipcRenderer: {
    invoke: async (channel: string, args: unknown) => {
      invoked.push([channel, args]);
      return { ok: true, data: null };
    },
    on: () => {},
    removeListener: () => {},
  },
}));

describe('preload entry', () => {
  it('exposes only `api`, with one function per contract channel, through contextBridge', async () => {
    await import('../../preload/index');
    expect(exposed.map(([key]) => key)).toEqual(['api']);
    const api = exposed[0]![1] as Record<string, (a: unknown) => Promise<unknown>>;
    expect(Object.keys(api).sort()).toEqual([...CHANNELS, 'on'].sort());
    await api['sessions.list']!({});
    expect(invoked).toEqual([['sessions.list', {}]]);
  });
});

import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../../renderer/src/lib/sse';
import { takeToken, TOKEN_KEY } from '../../../renderer/src/lib/token';

function fakes(href: string) {
  const store = new Map<string, string>();
  const replaced: string[] = [];
  return {
    location: { href },
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, url?: string | URL | null) => replaced.push(String(url)),
    },
    storage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) },
    store,
    replaced,
  };
}

describe('takeToken', () => {
  it('reads ?token=, stores it for the tab and removes it from the address bar keeping the hash', () => {
    const f = fakes('http://127.0.0.1:5000/?token=abc%2B1&x=2#/session/s1?entry=e1');
    expect(takeToken(f.location, f.history, f.storage)).toBe('abc+1');
    expect(f.store.get(TOKEN_KEY)).toBe('abc+1');
    expect(f.replaced).toEqual(['/?x=2#/session/s1?entry=e1']);
  });

  it('falls back to the stored token after a reload, without touching history', () => {
    const f = fakes('http://127.0.0.1:5000/#/session/s1');
    f.store.set(TOKEN_KEY, 'kept');
    expect(takeToken(f.location, f.history, f.storage)).toBe('kept');
    expect(f.replaced).toEqual([]);
  });

  it('returns null when there is no token at all', () => {
    const f = fakes('http://127.0.0.1:5000/');
    expect(takeToken(f.location, f.history, f.storage)).toBeNull();
  });
});

describe('createSseParser', () => {
  it('assembles frames across arbitrary chunk splits, CRLF and comments', () => {
    const got: Array<[string, string]> = [];
    const p = createSseParser((e, d) => got.push([e, d]));
    const text =
      ': connected\r\n\r\nevent: sessions.changed\r\ndata: {"reason":"added"}\r\n\r\nevent: session.appended\ndata: {"a":\ndata: 1}\n\ndata: plain\n\n';
    for (const ch of text) p.push(ch);
    expect(got).toEqual([
      ['sessions.changed', '{"reason":"added"}'],
      ['session.appended', '{"a":\n1}'],
      ['message', 'plain'],
    ]);
  });

  it('does not dispatch a frame before its blank line', () => {
    const got: string[] = [];
    const p = createSseParser((e) => got.push(e));
    p.push('event: x\ndata: 1\n');
    expect(got).toEqual([]);
    p.push('\n');
    expect(got).toEqual(['x']);
  });
});

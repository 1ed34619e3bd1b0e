import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDeepLink,
  formatSearchLink,
  parseDeepLink,
  parseSearchLink,
  shareableUrl,
} from '../../../renderer/src/lib/deep-link';

describe('deep links', () => {
  it('parses a session link and a session + entry link', () => {
    expect(parseDeepLink('#/session/abc-123')).toEqual({ sessionId: 'abc-123', entryId: null });
    expect(parseDeepLink('#/session/abc-123?entry=9f8e7d6c')).toEqual({ sessionId: 'abc-123', entryId: '9f8e7d6c' });
    expect(parseDeepLink('/session/abc?foo=1&entry=e1')).toEqual({ sessionId: 'abc', entryId: 'e1' });
  });

  it('decodes URI-encoded ids', () => {
    expect(parseDeepLink('#/session/a%20b~1?entry=x%2Fy')).toEqual({ sessionId: 'a b~1', entryId: 'x/y' });
  });

  it('refuses anything else', () => {
    for (const hash of [
      '',
      '#',
      '#/',
      '#/sessions/x',
      '#/session/',
      '#/session/a/b',
      '#/session/%E0%A4%A',
      '#/session/%00x',
      '#session/x',
    ]) {
      expect(parseDeepLink(hash), hash).toBeNull();
    }
    // A bad entry id drops the entry, not the session.
    expect(parseDeepLink('#/session/s?entry=')).toEqual({ sessionId: 's', entryId: null });
  });

  it('round-trips any valid ids', () => {
    // eslint-disable-next-line no-control-regex -- ids exclude control characters (validate.ts isId)
    const id = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/[\u0000-\u001f]/.test(s));
    fc.assert(
      fc.property(id, fc.option(id, { nil: null }), (sessionId, entryId) => {
        expect(parseDeepLink(formatDeepLink({ sessionId, entryId }))).toEqual({ sessionId, entryId });
      }),
    );
  });

  it('builds a shareable URL without the query string (where the serve token was)', () => {
    const url = shareableUrl(
      {
        origin: 'http://127.0.0.1:4000',
        pathname: '/',
        protocol: 'http:',
        href: 'http://127.0.0.1:4000/?token=secret#/x',
      },
      { sessionId: 's1', entryId: 'e1' },
    );
    expect(url).toBe('http://127.0.0.1:4000/#/session/s1?entry=e1');
    expect(url).not.toContain('secret');
  });
});

describe("search links (#/search?q=…, what pi's /canopy search opens)", () => {
  it('round-trips any query, and is no session link', () => {
    fc.assert(
      fc.property(fc.string(), (q) => {
        expect(parseSearchLink(formatSearchLink(q))).toBe(q);
        expect(parseDeepLink(formatSearchLink(q))).toBeNull();
      }),
    );
  });
  it('refuses other hashes and a bad escape', () => {
    for (const hash of ['', '#/search', '#/search?x=1', '#/session/a', '#/search?q=%E0%A4%A'])
      expect(parseSearchLink(hash)).toBeNull();
    expect(parseSearchLink('#/search?q=a+b')).toBe('a b');
  });
});

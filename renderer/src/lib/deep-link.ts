import { isId } from './shared';

/** `#/session/<sessionId>` and `#/session/<sessionId>?entry=<entryId>` (ids URI-encoded). */
export interface DeepLink {
  sessionId: string;
  entryId: string | null;
}

function decode(part: string): string | null {
  try {
    const value = decodeURIComponent(part);
    return isId(value) ? value : null;
  } catch {
    return null;
  }
}

export function parseDeepLink(hash: string): DeepLink | null {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const match = /^\/session\/([^/?#]+)\/?(?:\?(.*))?$/.exec(body);
  if (!match) return null;
  const sessionId = decode(match[1]!);
  if (sessionId === null) return null;
  let entryId: string | null = null;
  if (match[2] !== undefined) {
    for (const pair of match[2].split('&')) {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      if (key !== 'entry') continue;
      entryId = decode(eq === -1 ? '' : pair.slice(eq + 1).replace(/\+/g, '%20'));
    }
  }
  return { sessionId, entryId };
}

export function formatDeepLink(link: DeepLink): string {
  const base = `#/session/${encodeURIComponent(link.sessionId)}`;
  return link.entryId ? `${base}?entry=${encodeURIComponent(link.entryId)}` : base;
}

/** `#/search?q=<query>`: the search panel opened with a query (what pi's `/canopy search` sends). */
export function parseSearchLink(hash: string): string | null {
  const match = /^#?\/search\?q=([^&#]*)$/.exec(hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!.replace(/\+/g, '%20'));
  } catch {
    return null;
  }
}

export function formatSearchLink(query: string): string {
  return `#/search?q=${encodeURIComponent(query)}`;
}

/** A link the user can paste elsewhere: the page address without query (never the token) + hash. */
export function shareableUrl(
  location: Pick<Location, 'origin' | 'pathname' | 'protocol' | 'href'>,
  link: DeepLink,
): string {
  const base =
    location.protocol === 'file:' ? location.href.split(/[?#]/)[0]! : `${location.origin}${location.pathname}`;
  return `${base}${formatDeepLink(link)}`;
}

export const TOKEN_KEY = 'canopy.token';

/**
 * `canopy serve` prints a URL with `?token=…`. Read it once, keep it for this tab in sessionStorage
 * and remove it from the address bar (keeping the hash), so it does not end up in copied links,
 * bookmarks or the history list.
 */
export function takeToken(
  location: Pick<Location, 'href'>,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
): string | null {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null) {
    url.searchParams.delete('token');
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
    if (fromUrl !== '') {
      try {
        storage.setItem(TOKEN_KEY, fromUrl);
      } catch {
        // Storage may be disabled; the token still works for this page load.
      }
      return fromUrl;
    }
  }
  try {
    return storage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/**
 * The app's own origin, app://canopy (electron/app-protocol.ts serves it): what the window and the
 * IPC bridge compare a frame's URL with.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'canopy';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** True for a URL of the app itself (any page or asset of app://canopy). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    // A non-special scheme has an opaque origin ("null"), so scheme and host are compared instead.
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

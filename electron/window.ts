/**
 * The BrowserWindow factory with Electron's security checklist applied. Electron is injected
 * (structural types) so the policy is unit-tested with fakes where no Electron binary exists.
 */
export interface Bounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: false,
} as const;

export interface WebContentsPolicyTarget {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): void;
  on(event: 'will-frame-navigate', listener: (details: { url: string; preventDefault(): void }) => void): void;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface SessionPolicyTarget {
  setPermissionRequestHandler(
    handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (wc: unknown, permission: string, requestingOrigin: string, details?: unknown) => boolean,
  ): void;
}

/** Only plain https links to the web leave the app, and only through the OS browser. */
export function isVettedExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' && u.hostname.includes('.');
  } catch {
    return false;
  }
}

/** Deny every navigation of any frame away from the app (`isApp`), every new window and webviews. */
export function applyWebContentsPolicy(
  contents: WebContentsPolicyTarget,
  isApp: (url: string) => boolean,
  openExternal: (url: string) => void,
): void {
  const stay = (event: { preventDefault(): void }, url: string) => {
    if (!isApp(url)) event.preventDefault();
  };
  contents.on('will-navigate', stay);
  contents.on('will-redirect', stay);
  // will-navigate sees only the main frame; this one sees subframes too.
  contents.on('will-frame-navigate', (details) => stay(details, details.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isVettedExternalUrl(url)) openExternal(url);
    return { action: 'deny' };
  });
}

/**
 * The one permission granted: writing (sanitized) text to the clipboard, to the app's own origin —
 * every Copy button uses it, and a check handler that denies everything denies it too
 * (electron/electron#37158). Reading the clipboard, and every other permission, is never granted.
 */
export const CLIPBOARD_WRITE = 'clipboard-sanitized-write';

/** No permission (camera, notifications, geolocation …) is ever granted, but clipboard writes from the app. */
export function applySessionPolicy(session: SessionPolicyTarget, isApp: (url: string) => boolean): void {
  const allowed = (permission: string, origin: string | undefined) =>
    permission === CLIPBOARD_WRITE && typeof origin === 'string' && isApp(origin);
  session.setPermissionRequestHandler((wc, permission, callback) => callback(allowed(permission, originOf(wc))));
  session.setPermissionCheckHandler((_wc, permission, requestingOrigin) => allowed(permission, requestingOrigin));
}

/** The URL of the contents asking (request handler: it names no origin of its own). */
function originOf(wc: unknown): string | undefined {
  const url = (wc as { getURL?: () => unknown } | null)?.getURL?.();
  return typeof url === 'string' ? url : undefined;
}

/** `packaged`: app.isPackaged; a packaged build has no DevTools. */
export function windowOptions(bounds: Bounds, preloadPath: string, packaged: boolean) {
  return {
    ...bounds,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Canopy',
    backgroundColor: '#1e1e1e',
    webPreferences: { ...SECURE_WEB_PREFERENCES, devTools: !packaged, preload: preloadPath },
  };
}

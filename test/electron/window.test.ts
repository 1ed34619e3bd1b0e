import { describe, expect, it } from 'vitest';
import { applySessionPolicy, applyWebContentsPolicy, isVettedExternalUrl, windowOptions } from '../../electron/window';
import { menuTemplate } from '../../electron/menu';
import { isAppUrl } from '../../electron/shared/app-origin';

describe('window options', () => {
  it('apply the security checklist', () => {
    const o = windowOptions({ width: 1000, height: 700 }, '/app/preload.js', true);
    expect(o.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      preload: '/app/preload.js',
      devTools: false,
    });
    expect(windowOptions({ width: 1, height: 1 }, '/p.js', false).webPreferences.devTools).toBe(true);
  });
});

describe('web contents policy', () => {
  function fakeContents() {
    const on = new Map<string, (...a: any[]) => void>();
    let openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
    return {
      on: (event: string, fn: (...a: any[]) => void) => on.set(event, fn),
      setWindowOpenHandler: (fn: (d: { url: string }) => { action: 'deny' }) => (openHandler = fn),
      fire: (event: string, url?: string) => {
        let prevented = false;
        on.get(event)!({ preventDefault: () => (prevented = true) }, url);
        return prevented;
      },
      fireFrame: (url: string) => {
        let prevented = false;
        on.get('will-frame-navigate')!({ url, isMainFrame: false, preventDefault: () => (prevented = true) });
        return prevented;
      },
      open: (url: string) => openHandler!({ url }),
    };
  }

  it('denies navigation away from the app, redirects and webviews', () => {
    const c = fakeContents();
    applyWebContentsPolicy(c as never, isAppUrl, () => {});
    expect(c.fire('will-navigate', 'https://example.com/')).toBe(true);
    expect(c.fire('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(c.fire('will-navigate', 'app://canopy/index.html')).toBe(false);
    expect(c.fire('will-navigate', 'file:///app/index.html')).toBe(true);
    expect(c.fireFrame('https://example.com/')).toBe(true);
    expect(c.fireFrame('app://canopy/index.html')).toBe(false);
    expect(c.fire('will-attach-webview')).toBe(true);
  });

  it('never opens a window; hands only vetted https links to the OS', () => {
    const c = fakeContents();
    const opened: string[] = [];
    applyWebContentsPolicy(c as never, isAppUrl, (u) => opened.push(u));
    expect(c.open('https://github.com/earendil-works/pi')).toEqual({ action: 'deny' });
    expect(c.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(c.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://github.com/earendil-works/pi']);
  });

  it('vets external urls', () => {
    expect(isVettedExternalUrl('https://example.com/x')).toBe(true);
    expect(isVettedExternalUrl('http://example.com/x')).toBe(false);
    expect(isVettedExternalUrl('https://user:pw@example.com/')).toBe(false);
    expect(isVettedExternalUrl('https://localhost/')).toBe(false);
    expect(isVettedExternalUrl('not a url')).toBe(false);
  });

  it('grants no permission but clipboard writes from the app itself (electron/electron#37158)', () => {
    let request: ((wc: unknown, p: string, cb: (g: boolean) => void) => void) | undefined;
    let check: ((wc: unknown, p: string, origin: string) => boolean) | undefined;
    applySessionPolicy(
      {
        setPermissionRequestHandler: (h) => (request = h),
        setPermissionCheckHandler: (h) => (check = h),
      },
      isAppUrl,
    );
    const app = { getURL: () => 'app://canopy/index.html' };
    const other = { getURL: () => 'https://example.com/' };
    const answers: boolean[] = [];
    request!(app, 'media', (g) => answers.push(g));
    request!(app, 'notifications', (g) => answers.push(g));
    request!(app, 'clipboard-read', (g) => answers.push(g));
    request!(other, 'clipboard-sanitized-write', (g) => answers.push(g));
    request!(app, 'clipboard-sanitized-write', (g) => answers.push(g));
    expect(answers).toEqual([false, false, false, false, true]);
    expect(check!(app, 'clipboard-sanitized-write', 'app://canopy')).toBe(true);
    expect(check!(app, 'clipboard-sanitized-write', 'https://example.com')).toBe(false);
    expect(check!(app, 'clipboard-read', 'app://canopy')).toBe(false);
    expect(check!(app, 'media', 'app://canopy')).toBe(false);
  });
});

describe('menu', () => {
  it('has the platform roles and a working reload command', () => {
    let reloaded = 0;
    let opened = 0;
    const t = menuTemplate(
      'linux',
      { open: () => opened++, reloadSessions: () => reloaded++, openSessionsFolder: () => {} },
      false,
    );
    expect(t.map((m) => ('role' in m ? m.role : m.label))).toEqual(['File', 'editMenu', 'View', 'windowMenu']);
    const file = t[0] as { submenu: Array<{ label?: string; click?: () => void }> };
    file.submenu.find((i) => i.label === 'Reload Sessions')!.click!();
    expect(reloaded).toBe(1);
    file.submenu.find((i) => i.label === 'Open…')!.click!();
    expect(opened).toBe(1);
    expect(
      menuTemplate('darwin', { open: () => {}, reloadSessions: () => {}, openSessionsFolder: () => {} }, false)[0],
    ).toEqual({ role: 'appMenu' });
  });

  it('offers the DevTools toggle only in a development build', () => {
    const roles = (packaged: boolean) => {
      const view = menuTemplate(
        'linux',
        { open: () => {}, reloadSessions: () => {}, openSessionsFolder: () => {} },
        packaged,
      )[2] as { submenu: Array<{ role?: string }> };
      return view.submenu.map((i) => i.role);
    };
    expect(roles(false)).toContain('toggleDevTools');
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(true)).toContain('reload');
  });
});

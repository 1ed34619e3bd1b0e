// Electron lifecycle only: single instance, window, IPC registration. Everything else is plain Node.
import { app, BrowserWindow, ipcMain, Menu, nativeTheme, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAppServices } from './app-services';
import { forwardEvents, registerIpc, trustedByUrl } from './ipc/register-electron';
import { menuTemplate } from './menu';
import { rootsFromArgs } from './repo/roots';
import { loadWindowState, saveWindowState } from './storage/window-state';
import { applySessionPolicy, applyWebContentsPolicy, windowOptions } from './window';

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  await app.whenReady();
  nativeTheme.themeSource = 'system';
  const { bus, catalog, handlers, close } = createAppServices({
    roots: rootsFromArgs(process.argv.slice(1)),
    demoDir: app.isPackaged ? join(process.resourcesPath, 'demo') : join(__dirname, '../../resources/demo'),
    transport: 'electron',
  });
  const rendererFile = join(__dirname, '../renderer/index.html');
  const appUrl = pathToFileURL(rendererFile).href;
  registerIpc(ipcMain, handlers, {
    isTrustedSender: trustedByUrl(pathToFileURL(join(__dirname, '../renderer/')).href),
  });
  app.on('web-contents-created', (_event, contents) => applyWebContentsPolicy(contents, appUrl, (url) => void shell.openExternal(url)));

  const settingsDir = app.getPath('userData');
  const state = await loadWindowState(settingsDir);
  const win = new BrowserWindow(windowOptions(state, join(__dirname, '../preload/index.js')));
  applySessionPolicy(win.webContents.session);
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  const stopEvents = forwardEvents(bus, win.webContents);
  win.on('close', () => {
    void saveWindowState(settingsDir, { ...win.getNormalBounds(), maximized: win.isMaximized() });
  });
  win.on('closed', () => {
    stopEvents();
    close();
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(process.platform, {
        reloadSessions: () => bus.emit('sessions.changed', { reason: 'changed' }),
        openSessionsFolder: () => {
          const first = catalog.rootsForDisplay()[0];
          if (first) void shell.openPath(first);
        },
      }),
    ),
  );
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  await win.loadFile(rendererFile);
}

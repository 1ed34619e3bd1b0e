// Electron lifecycle only: single instance, window, IPC registration. Everything else is plain Node.
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, protocol, shell } from 'electron';
import { join, resolve } from 'node:path';
import { APP_SCHEME_PRIVILEGES, appProtocolHandler } from './app-protocol';
import { APP_SCHEME, APP_URL, isAppUrl } from './shared/app-origin';
import { createAppServices } from './app-services';
import { forwardEvents, registerIpc, trustedSender } from './ipc/register-electron';
import { menuTemplate } from './menu';
import { confineOpenPaths, folderToShow, type PathKind } from './open-confine';
import { linkFromArgs, openArgsFrom, rootsFromArgs } from './repo/roots';
import { statPathSync } from './storage/stat';
import { loadWindowState, saveWindowState } from './storage/window-state';
import { applySessionPolicy, applyWebContentsPolicy, windowOptions } from './window';

// A bug in one request or one file is logged, never the end of the app.
process.on('uncaughtException', (err) => console.error('canopy: uncaught exception', err));
process.on('unhandledRejection', (reason) => console.error('canopy: unhandled rejection', reason));
// Must happen before `ready`.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

function kindOfPath(path: string): PathKind | null {
  try {
    return statPathSync(path);
  } catch {
    return null;
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  await app.whenReady();
  nativeTheme.themeSource = 'system';
  let win: BrowserWindow | null = null;
  // The only source of paths besides argv: the user's choice in the native dialog, made in main.
  const openDialog = async (): Promise<string[]> => {
    const options = {
      properties: ['openFile', 'openDirectory', 'multiSelections'] as Array<
        'openFile' | 'openDirectory' | 'multiSelections'
      >,
      filters: [{ name: 'pi sessions', extensions: ['jsonl'] }],
    };
    const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return r.canceled ? [] : r.filePaths;
  };
  // Exports go where the user chooses (storage/create never overwrites: a chosen existing file is refused).
  const saveDialog = async (suggestedName: string): Promise<string | null> => {
    const options = { defaultPath: suggestedName, properties: ['createDirectory' as const] };
    const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? null : r.filePath;
  };
  const openArgs = (argv: readonly string[], cwd: string) => {
    // argv[0] is the binary; in development the app folder follows it. Confined as the dialog's
    // choices are (a second instance's argv comes from any local process).
    const paths = confineOpenPaths(
      openArgsFrom(argv.slice(1))
        .map((p) => resolve(cwd, p))
        .filter((p) => p !== app.getAppPath()),
      kindOfPath,
      app.getPath('home'),
    );
    if (paths.length > 0)
      void catalog.openPaths(paths).then(
        () => bus.emit('sessions.changed', { reason: 'added' }),
        () => undefined,
      );
  };
  const { bus, catalog, handlers, close } = createAppServices({
    openDialog,
    saveDialog,
    roots: rootsFromArgs(process.argv.slice(1)),
    openedFolders: openArgsFrom(process.argv.slice(1)).map((p) => resolve(process.cwd(), p)),
    demoDir: app.isPackaged ? join(process.resourcesPath, 'demo') : join(__dirname, '../../resources/demo'),
    transport: 'electron',
    offload: true,
  });
  protocol.handle(APP_SCHEME, appProtocolHandler(join(__dirname, '../renderer')));
  const appWindows = new Set<unknown>();
  registerIpc(ipcMain, handlers, { isTrustedSender: trustedSender((sender) => appWindows.has(sender)) });
  app.on('web-contents-created', (_event, contents) =>
    applyWebContentsPolicy(contents, isAppUrl, (url) => void shell.openExternal(url)),
  );

  const settingsDir = app.getPath('userData');
  const state = await loadWindowState(settingsDir);
  openArgs(process.argv, process.cwd());
  const window = new BrowserWindow(windowOptions(state, join(__dirname, '../preload/index.js'), app.isPackaged));
  win = window;
  const contents = window.webContents; // kept: reading it after 'closed' throws
  appWindows.add(contents);
  applySessionPolicy(contents.session, isAppUrl);
  if (state.maximized) win.maximize();
  window.once('ready-to-show', () => window.show());
  const stopEvents = forwardEvents(bus, contents);
  win.on('close', () => {
    void saveWindowState(settingsDir, { ...win.getNormalBounds(), maximized: win.isMaximized() });
  });
  win.on('closed', () => {
    appWindows.delete(contents);
    stopEvents();
    void close();
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(
        process.platform,
        {
          reloadSessions: () => bus.emit('sessions.changed', { reason: 'changed' }),
          open: () =>
            void openDialog()
              .then((paths) => catalog.openPaths(paths))
              .then(
                () => bus.emit('sessions.changed', { reason: 'added' }),
                () => undefined,
              ),
          openSessionsFolder: () => {
            // Only ever a folder: openPath of an opened .jsonl would run whatever program claims it.
            const folder = folderToShow(catalog.rootsForDisplay()[0], kindOfPath);
            if (folder) void shell.openPath(folder);
          },
        },
        app.isPackaged,
      ),
    ),
  );
  app.on('second-instance', (_event, argv, cwd) => {
    openArgs(argv, cwd);
    // pi's `/canopy` reaches a running app this way: the link (checked in linkFromArgs) becomes the hash.
    const link = linkFromArgs(argv.slice(1));
    if (link) void contents.executeJavaScript(`location.hash = ${JSON.stringify(link)}`).catch(() => undefined);
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  await win.loadURL(`${APP_URL}${linkFromArgs(process.argv.slice(1)) ?? ''}`);
}

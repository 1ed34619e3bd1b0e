/** The native menu: the platform's usual roles and shortcuts plus Canopy's own commands. */
export interface MenuActions {
  /** File ▸ Open…: the native dialog in main. */
  open(): void;
  reloadSessions(): void;
  openSessionsFolder(): void;
}

/** The View menu's usual items; the DevTools toggle only in a development build. */
function viewMenu(packaged: boolean) {
  return {
    label: 'View',
    submenu: [
      { role: 'reload' as const },
      { role: 'forceReload' as const },
      ...(packaged ? [] : [{ role: 'toggleDevTools' as const }]),
      { type: 'separator' as const },
      { role: 'resetZoom' as const },
      { role: 'zoomIn' as const },
      { role: 'zoomOut' as const },
      { type: 'separator' as const },
      { role: 'togglefullscreen' as const },
    ],
  };
}

/** `packaged`: app.isPackaged. */
export function menuTemplate(platform: string, actions: MenuActions, packaged: boolean) {
  const mac = platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.open() },
        { label: 'Reload Sessions', accelerator: 'CmdOrCtrl+Shift+R', click: () => actions.reloadSessions() },
        { label: 'Open Sessions Folder', click: () => actions.openSessionsFolder() },
        { type: 'separator' as const },
        mac ? { role: 'close' as const } : { role: 'quit' as const },
      ],
    },
    { role: 'editMenu' as const },
    viewMenu(packaged),
    { role: 'windowMenu' as const },
  ];
}

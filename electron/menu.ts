/** The native menu: the platform's usual roles and shortcuts plus Canopy's own commands. */
export interface MenuActions {
  /** File ▸ Open…: the native dialog in main. */
  open(): void;
  reloadSessions(): void;
  openSessionsFolder(): void;
}

export function menuTemplate(platform: string, actions: MenuActions) {
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
    { role: 'viewMenu' as const },
    { role: 'windowMenu' as const },
  ];
}

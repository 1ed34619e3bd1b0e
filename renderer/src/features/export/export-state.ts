/** Whether the export dialog is open: the palette, the session's Share button and the dialog share it. */
import { createStore } from 'zustand/vanilla';

export const exportDialog = createStore<{ open: boolean }>(() => ({ open: false }));

export function openExportDialog(): void {
  exportDialog.setState({ open: true });
}

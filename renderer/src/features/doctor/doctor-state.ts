/** Whether the doctor dialog is open: the palette, the session's Doctor button and the dialog share it. */
import { createStore } from 'zustand/vanilla';

export const doctorDialog = createStore<{ open: boolean }>(() => ({ open: false }));

export function openDoctorDialog(): void {
  doctorDialog.setState({ open: true });
}

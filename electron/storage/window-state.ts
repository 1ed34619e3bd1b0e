/** Remembers the window's size and position in the app's own settings folder (never near sessions). */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 800 };

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export async function loadWindowState(dir: string): Promise<WindowState> {
  try {
    const v = JSON.parse(await readFile(join(dir, 'window-state.json'), 'utf8')) as Record<string, unknown>;
    if (!num(v.width) || !num(v.height) || v.width < 400 || v.height < 300) return DEFAULT_WINDOW_STATE;
    const state: WindowState = { width: v.width, height: v.height, maximized: v.maximized === true };
    if (num(v.x) && num(v.y)) Object.assign(state, { x: v.x, y: v.y });
    return state;
  } catch {
    return DEFAULT_WINDOW_STATE;
  }
}

export async function saveWindowState(dir: string, state: WindowState): Promise<void> {
  const file = join(dir, 'window-state.json');
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, file);
}

import { matchesChord, parseShortcut, typesText, type Chord, type KeyLike } from './shortcuts';

export type ActionGroup = 'General' | 'Navigate' | 'Session' | 'Entry' | 'View' | 'Filter' | 'Profile';

/**
 * One thing the user can do. The palette lists it, the key bindings run it and the `?` overlay
 * shows it, all from this one declaration.
 */
export interface CommandAction {
  id: string;
  title: string;
  group: ActionGroup;
  /** First one is the one shown; the others are alternatives. */
  shortcut?: readonly string[];
  /** More words the palette matches on. */
  keywords?: string;
  /** Absent = always available. */
  enabled?: () => boolean;
  run: () => unknown;
}

/**
 * Actions other features implement, declared here so their ids and shortcuts exist once.
 * A feature registers `{ ...CONTRIBUTED.openFile, run }` through `registry.register`.
 */
export const CONTRIBUTED = {
  openFile: {
    id: 'open.file',
    title: 'Open a session file…',
    group: 'General',
    shortcut: ['mod+o'],
    keywords: 'file path jsonl',
  },
  searchSessions: {
    id: 'search.sessions',
    title: 'Search sessions (full text)',
    group: 'General',
    shortcut: ['mod+shift+f'],
    keywords: 'find grep text',
  },
  exportSession: {
    id: 'export.session',
    title: 'Export / share this session…',
    group: 'Session',
    keywords: 'export share html markdown jsonl redact secrets ledger',
  },
  doctorSession: {
    id: 'doctor.session',
    title: 'Doctor: damage old pi versions left in this session…',
    group: 'Session',
    keywords: 'doctor repair fix damage broken glued orphan missing parent old pi',
  },
  doctorStore: {
    id: 'doctor.store',
    title: 'Doctor: damage old pi versions left, across every session',
    group: 'General',
    keywords: 'doctor repair fix damage broken store all sessions old pi',
  },
  showUsage: {
    id: 'store.usage',
    title: 'Usage: spend by day, model and project',
    group: 'General',
    keywords: 'cost tokens money spend calendar',
  },
  showStorage: {
    id: 'store.storage',
    title: 'Storage: what fills the disk, slim copies',
    group: 'General',
    keywords: 'disk bytes size images slim',
  },
  compareWith: {
    id: 'compare.with',
    title: 'Compare with…',
    group: 'Session',
    shortcut: ['mod+shift+d'],
    keywords: 'diff branches two leaves tips fork side by side',
  },
  keepSession: {
    id: 'keep.session',
    title: 'Rename, tag, pin or note this session…',
    group: 'Session',
    shortcut: ['f2'],
    keywords: 'rename name tag label pin star note keep organise',
  },
  pinSession: {
    id: 'keep.pin',
    title: 'Pin / unpin this session',
    group: 'Session',
    keywords: 'pin star favourite top',
  },
  trashSession: {
    id: 'keep.trash',
    title: 'Move this session to the trash…',
    group: 'Session',
    keywords: 'delete remove trash bin forks family',
  },
  restoreTrashed: {
    id: 'keep.restore',
    title: 'Trash: restore sessions Canopy trashed…',
    group: 'General',
    keywords: 'undelete restore trash bin undo',
  },
  continueInPi: {
    id: 'session.continueInPi',
    title: 'Continue in pi (open a terminal)',
    group: 'Session',
    shortcut: ['mod+shift+o'],
    keywords: 'resume terminal pi run shell',
  },
} as const satisfies Record<string, Omit<CommandAction, 'run'>>;

export interface CommandRegistry {
  /** Adds actions (a later one with the same id replaces the earlier); returns the undo. */
  register(actions: readonly CommandAction[]): () => void;
  list(): readonly CommandAction[];
  get(id: string): CommandAction | undefined;
  isEnabled(action: CommandAction): boolean;
  /** Runs an enabled action; false when it is missing or disabled. */
  run(id: string): boolean;
  /** The enabled action a key event triggers (none for text-typing keys while `inText`). */
  forKey(e: KeyLike, inText: boolean): CommandAction | undefined;
  subscribe(listener: () => void): () => void;
}

export function createRegistry(initial: readonly CommandAction[] = []): CommandRegistry {
  let actions: CommandAction[] = [];
  let chords = new Map<string, Chord[]>();
  const listeners = new Set<() => void>();

  const rebuild = (next: CommandAction[]) => {
    const parsed = new Map<string, Chord[]>();
    const owner = new Map<string, string>();
    for (const a of next) {
      const list: Chord[] = [];
      for (const s of a.shortcut ?? []) {
        const chord = parseShortcut(s);
        const norm = JSON.stringify(chord);
        const other = owner.get(norm);
        if (other && other !== a.id) throw new Error(`Shortcut "${s}" of "${a.id}" is already bound to "${other}"`);
        owner.set(norm, a.id);
        list.push(chord);
      }
      parsed.set(a.id, list);
    }
    actions = next;
    chords = parsed;
    for (const l of listeners) l();
  };

  const isEnabled = (a: CommandAction) => {
    try {
      return a.enabled ? a.enabled() : true;
    } catch {
      return false;
    }
  };

  const registry: CommandRegistry = {
    register(more) {
      const ids = new Set(more.map((a) => a.id));
      const replaced = actions.filter((a) => ids.has(a.id));
      rebuild([...actions.filter((a) => !ids.has(a.id)), ...more]);
      return () => {
        const mine = new Set(more);
        rebuild([
          ...actions.filter((a) => !mine.has(a)),
          ...replaced.filter((a) => !actions.some((b) => b.id === a.id)),
        ]);
      };
    },
    list: () => actions,
    get: (id) => actions.find((a) => a.id === id),
    isEnabled,
    run(id) {
      const a = registry.get(id);
      if (!a || !isEnabled(a)) return false;
      void a.run();
      return true;
    },
    forKey(e, inText) {
      for (const a of actions) {
        const list = chords.get(a.id) ?? [];
        if (list.some((c) => matchesChord(c, e) && !(inText && typesText(c))) && isEnabled(a)) return a;
      }
      return undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  rebuild([...initial]);
  return registry;
}

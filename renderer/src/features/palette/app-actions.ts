import type { AppServices } from '../../app-context';
import { copyText } from '../../lib/clipboard';
import { shareableUrl } from '../../lib/deep-link';
import { resumeCommandIn } from '../../lib/shared';
import { THEMES, type ThemeChoice } from '../../store/ui-slice';
import { FILTER_LABELS, FILTER_MODES } from '../../model/filters';
import type { CommandAction } from '../../commands/registry';

/** Moves keyboard focus to an element of the page by test id (the panes are the stable anchors). */
export function focusTestId(testId: string): boolean {
  const el = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (!el) return false;
  el.focus();
  el.scrollIntoView?.({ block: 'nearest' });
  return true;
}

const THEME_TITLES: Record<ThemeChoice, string> = {
  system: 'Theme: follow the system',
  light: 'Theme: light',
  dark: 'Theme: dark',
};

/** Every built-in action. Features add theirs through the registry (see CONTRIBUTED). */
export function coreActions({ store, actions }: Pick<AppServices, 'store' | 'actions'>): CommandAction[] {
  const s = () => store.getState();
  const hasGraph = () => s().graph !== null;
  const hasEntry = () => s().graph !== null && s().selectedEntryId !== null;
  const toast = (text: string) => s().showToast(text);
  const copy = (text: string, what: string) =>
    void copyText(text).then((ok) => toast(ok ? `${what} copied` : `Copy failed — ${text}`));
  const openTab = (tab: 'entry' | 'context', focus: string) => {
    s().setRightTab(tab);
    // The tab page renders on the next frame.
    requestAnimationFrame(() => focusTestId(focus));
  };

  const list: CommandAction[] = [
    {
      id: 'palette.open',
      title: 'Command palette',
      group: 'General',
      shortcut: ['mod+k', 'mod+shift+p'],
      run: () => s().setPaletteOpen(!s().paletteOpen),
    },
    {
      id: 'help.shortcuts',
      title: 'Keyboard shortcuts',
      group: 'General',
      shortcut: ['?'],
      keywords: 'help keys',
      run: () => s().setShortcutsOpen(!s().shortcutsOpen),
    },
    {
      id: 'sessions.refresh',
      title: 'Rescan session folders',
      group: 'General',
      keywords: 'reload refresh list',
      run: () => actions.loadSessions({ refresh: true }),
    },

    {
      id: 'focus.sessions',
      title: 'Go to the session list',
      group: 'Navigate',
      shortcut: ['alt+1'],
      run: () => focusTestId('session-list'),
    },
    {
      id: 'focus.graph',
      title: 'Go to the graph',
      group: 'Navigate',
      shortcut: ['alt+2'],
      enabled: hasGraph,
      run: () => focusTestId('graph-canvas'),
    },
    {
      id: 'focus.entry',
      title: 'Go to the entry inspector',
      group: 'Navigate',
      shortcut: ['alt+3'],
      run: () => openTab('entry', 'tab-entry'),
    },
    {
      id: 'focus.context',
      title: 'Go to what the model sees',
      group: 'Navigate',
      shortcut: ['alt+4'],
      run: () => openTab('context', 'tab-context'),
    },
    {
      id: 'focus.sessionFilter',
      title: 'Filter sessions',
      group: 'Navigate',
      shortcut: ['/'],
      run: () => focusTestId('session-filter'),
    },
    {
      id: 'focus.entrySearch',
      title: 'Search entries of this session',
      group: 'Navigate',
      shortcut: ['mod+f'],
      enabled: hasGraph,
      run: () => focusTestId('graph-search'),
    },

    {
      id: 'graph.zoomToLeaf',
      title: 'Zoom to leaf',
      group: 'View',
      shortcut: ['shift+l'],
      enabled: () => !!s().graph?.leafId,
      run: () => s().requestFocus(s().graph!.leafId!),
    },
    {
      id: 'graph.fit',
      title: 'Fit the graph',
      group: 'View',
      shortcut: ['shift+f'],
      enabled: hasGraph,
      run: () => s().requestFit(),
    },
    {
      id: 'graph.collapseChains',
      title: 'Collapse expanded chains',
      group: 'View',
      enabled: () => Object.keys(s().expandedChains).length > 0,
      run: () => s().collapseAllChains(),
    },
    {
      id: 'graph.minimap',
      title: 'Show or hide the minimap',
      group: 'View',
      shortcut: ['shift+m'],
      enabled: hasGraph,
      run: () => s().setMinimap(document.querySelector('[data-testid="graph-overview"]') ? 'off' : 'on'),
    },
    {
      id: 'graph.leafRecords',
      title: 'Show or hide leaf records',
      group: 'View',
      enabled: () => !!s().graph?.entries.some((e) => e.type === 'leaf'),
      run: () => s().setShowLeafRecords(!s().showLeafRecords),
    },
    ...THEMES.map<CommandAction>((t) => ({
      id: `theme.${t}`,
      title: THEME_TITLES[t],
      group: 'View',
      keywords: 'appearance colour color mode',
      run: () => s().setTheme(t),
    })),
    {
      id: 'theme.cycle',
      title: 'Switch theme (system → light → dark)',
      group: 'View',
      shortcut: ['alt+t'],
      keywords: 'appearance colour color mode',
      run: () => s().setTheme(THEMES[(THEMES.indexOf(s().theme) + 1) % THEMES.length]!),
    },

    ...FILTER_MODES.map<CommandAction>((mode) => ({
      id: `filter.${mode}`,
      title: `Filter: ${FILTER_LABELS[mode]}`,
      group: 'Filter',
      enabled: () => hasGraph() && s().filterMode !== mode,
      run: () => s().setFilterMode(mode),
    })),

    {
      id: 'profile.detected',
      title: 'Profile: as detected',
      group: 'Profile',
      enabled: () => hasGraph() && s().profileOverride !== null,
      run: () => actions.setProfile(null),
    },
    ...(['ca', 'h3'] as const).map<CommandAction>((p) => ({
      id: `profile.${p}`,
      title: `Profile: read as ${p.toUpperCase()}`,
      group: 'Profile',
      enabled: () => hasGraph() && s().graph!.profile !== p,
      run: () => actions.setProfile(p === s().graph!.detectedProfile ? null : p),
    })),

    {
      id: 'session.copyCommand',
      title: 'Resume in pi: copy `cd <cwd> && pi --session <file>`',
      group: 'Session',
      shortcut: ['mod+shift+c'],
      enabled: hasGraph,
      run: () => copy(resumeCommandIn(s().graph!.cwd, s().graph!.path), 'Command'),
    },
    {
      id: 'session.copyLink',
      title: 'Copy a link to this session (and entry)',
      group: 'Session',
      enabled: hasGraph,
      run: () =>
        copy(shareableUrl(window.location, { sessionId: s().graph!.sessionId, entryId: s().selectedEntryId }), 'Link'),
    },
    {
      id: 'session.openParent',
      title: 'Open the parent session',
      group: 'Session',
      enabled: () => {
        const id = s().openSessionId;
        return !!id && !!s().sessionList?.sessions.find((r) => r.sessionId === id)?.parentSessionId;
      },
      run: () =>
        actions.openSession(s().sessionList!.sessions.find((r) => r.sessionId === s().openSessionId)!.parentSessionId!),
    },

    {
      id: 'entry.fork',
      title: 'Fork here… (new session from this entry)',
      group: 'Entry',
      keywords: 'branch clone new session write',
      enabled: hasEntry,
      run: () => {
        s().setRightTab('entry');
        requestAnimationFrame(() => {
          const button = document.querySelector<HTMLButtonElement>('[data-testid="fork-button"]');
          // A disabled button takes no focus: say why instead of doing nothing.
          if (button?.disabled)
            toast('Cannot fork yet: the preview is loading, or pi refuses this target (see the fork panel)');
          focusTestId(button?.disabled ? 'fork-panel' : 'fork-button');
        });
      },
    },
    {
      id: 'entry.whatIf',
      title: 'What if this entry were the leaf?',
      group: 'Entry',
      keywords: 'context model sees',
      enabled: hasEntry,
      run: () => {
        void actions.setWhatIfLeaf(s().selectedEntryId);
        openTab('context', 'tab-context');
      },
    },
    {
      id: 'entry.whatIfReset',
      title: 'Back to the current leaf (end what-if)',
      group: 'Entry',
      enabled: () => s().whatIfLeaf !== null,
      run: () => actions.setWhatIfLeaf(null),
    },
    {
      id: 'entry.copyId',
      title: 'Copy the entry id',
      group: 'Entry',
      enabled: hasEntry,
      run: () => copy(s().selectedEntryId!, 'Id'),
    },
    {
      id: 'entry.parent',
      title: 'Select the parent entry',
      group: 'Entry',
      enabled: () => hasEntry() && !!s().graph!.entries.find((e) => e.id === s().selectedEntryId)?.parentId,
      run: () =>
        actions.selectEntry(s().graph!.entries.find((e) => e.id === s().selectedEntryId)!.parentId, { focus: true }),
    },
    {
      id: 'entry.clear',
      title: 'Clear the selection',
      group: 'Entry',
      enabled: () => s().selectedEntryId !== null,
      run: () => actions.selectEntry(null),
    },
  ];
  return list;
}

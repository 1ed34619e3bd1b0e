import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { useCommandRegistry, useRegisteredActions } from '../../commands/commands-context';
import { Keys } from './Keys';
import { Marked } from '../../ui/Marked';
import { paletteItems, type PaletteItem } from './palette-model';
import { focusTestId } from './app-actions';

export function CommandPalette() {
  const open = useCanopy((s) => s.paletteOpen);
  return open ? <PaletteDialog /> : null;
}

/** A query main should resolve as a file path (session.find). */
export function looksLikePath(q: string): boolean {
  return q.length > 1 && (/[\\/]/.test(q) || q.endsWith('.jsonl'));
}

const GROUP_TITLES = { actions: 'Actions', sessions: 'Sessions', entries: 'Entries of this session' } as const;
type GroupName = keyof typeof GROUP_TITLES;

function PaletteDialog() {
  const registry = useCommandRegistry();
  const registered = useRegisteredActions();
  const actions = useActions();
  const setOpen = useCanopy((s) => s.setPaletteOpen);
  const list = useCanopy((s) => s.sessionList);
  const summaries = useCanopy((s) => s.summaries);
  const keep = useCanopy((s) => s.keep);
  const graph = useCanopy((s) => s.graph);
  const [query, setQuery] = useState('');
  // Where focus goes back to when the palette closes without moving it elsewhere.
  const before = useRef<Element | null>(document.activeElement);

  // A pasted file path (or an id typed whole) is looked up by main: only a listed session answers.
  const [found, setFound] = useState<{ query: string; sessionId: string } | null>(null);
  useEffect(() => {
    const q = query.trim();
    if (!looksLikePath(q)) return;
    let live = true;
    void actions.findSession(q).then((sessionId) => {
      if (live && sessionId) setFound({ query: q, sessionId });
    });
    return () => {
      live = false;
    };
  }, [actions, query]);

  const fuzzy = useMemo(
    () =>
      paletteItems(query, {
        actions: registered,
        isEnabled: (a) => registry?.isEnabled(a) ?? false,
        sessions: list?.sessions ?? [],
        summaries,
        keep,
        entries: graph?.entries ?? [],
        labels: graph?.labels,
      }),
    [query, registered, registry, list, summaries, keep, graph],
  );
  const result = useMemo(() => {
    if (!found || found.query !== query.trim()) return fuzzy;
    const byPath: PaletteItem = {
      kind: 'session',
      key: `path:${found.sessionId}`,
      sessionId: found.sessionId,
      title: `Open ${found.query}`,
      detail: 'the session at this path',
      score: Number.MAX_SAFE_INTEGER,
    };
    return {
      ...fuzzy,
      sessions: [byPath, ...fuzzy.sessions.filter((i) => i.kind !== 'session' || i.sessionId !== found.sessionId)],
    };
  }, [fuzzy, found, query]);
  // Groups in the order of their best hit (actions first on a tie, and with no query).
  const groups = (Object.keys(GROUP_TITLES) as GroupName[])
    .map((name, i) => ({ name, items: result[name], rank: i }))
    .filter((g) => g.items.length > 0)
    .sort((a, b) => (query ? b.items[0]!.score - a.items[0]!.score : 0) || a.rank - b.rank);

  const close = (then?: () => unknown) => {
    setOpen(false);
    const back = before.current;
    requestAnimationFrame(() => {
      if (then) void then();
      requestAnimationFrame(() => {
        if ((!document.activeElement || document.activeElement === document.body) && back instanceof HTMLElement)
          back.focus();
      });
    });
  };
  const choose = (item: PaletteItem) => {
    if (item.kind === 'action') close(() => registry?.run(item.action.id));
    else if (item.kind === 'session')
      close(() => {
        focusTestId('session-list');
        return actions.openSession(item.sessionId);
      });
    else
      close(() => {
        actions.selectEntry(item.entryId, { focus: true });
        focusTestId('graph-canvas');
      });
  };

  return (
    <div className="overlay-backdrop" onMouseDown={() => close()} data-testid="palette">
      <Command
        className="palette"
        label="Command palette"
        shouldFilter={false}
        loop
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      >
        <Command.Input
          autoFocus
          value={query}
          onValueChange={setQuery}
          placeholder="Type a command, a session or an entry…"
          data-testid="palette-input"
        />
        <Command.List className="palette-list" data-testid="palette-list">
          <Command.Empty className="muted pad">Nothing matches.</Command.Empty>
          {groups.map((g) => (
            <Command.Group key={g.name} heading={GROUP_TITLES[g.name]}>
              {g.items.map((item) => (
                <Command.Item
                  key={item.key}
                  value={item.key}
                  className="palette-item"
                  data-testid="palette-item"
                  data-kind={item.kind}
                  data-id={
                    item.kind === 'action' ? item.action.id : item.kind === 'session' ? item.sessionId : item.entryId
                  }
                  onSelect={() => choose(item)}
                >
                  <span className="palette-title">
                    {item.kind === 'session' && item.titleMark ? (
                      <Marked text={item.titleMark.text} ranges={item.titleMark.ranges} window={90} />
                    ) : (
                      item.title
                    )}
                  </span>
                  {item.kind === 'session' && item.otherMark && (
                    <span className="palette-detail small" data-testid="palette-match">
                      <Marked text={item.otherMark.text} ranges={item.otherMark.ranges} window={60} />
                    </span>
                  )}
                  {item.kind !== 'action' && <span className="palette-detail muted small">{item.detail}</span>}
                  {item.kind === 'action' && item.action.shortcut?.[0] && <Keys shortcut={item.action.shortcut[0]} />}
                </Command.Item>
              ))}
            </Command.Group>
          ))}
        </Command.List>
        <div className="palette-foot muted small">
          ↑↓ to move · Enter to run · Esc to close · <Keys shortcut="?" /> all shortcuts
        </div>
      </Command>
    </div>
  );
}

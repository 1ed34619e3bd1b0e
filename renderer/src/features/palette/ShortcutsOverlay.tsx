import { useEffect, useRef } from 'react';
import { useCanopy } from '../../app-context';
import { useRegisteredActions } from '../../commands/commands-context';
import { Keys } from './Keys';
import type { ActionGroup, CommandAction } from '../../commands/registry';

/** Keys that belong to one focused list rather than to an action (drawn with the rest). */
export const LIST_KEYS: ReadonlyArray<{ where: string; keys: string[]; what: string }> = [
  { where: 'Session list', keys: ['arrowup', 'arrowdown'], what: 'move' },
  { where: 'Session list', keys: ['home', 'end'], what: 'first / last' },
  { where: 'Session list', keys: ['enter'], what: 'open the session (a project: fold it)' },
  { where: 'Session list', keys: ['arrowleft', 'arrowright'], what: 'fold / unfold a project' },
  { where: 'Graph', keys: ['arrowup', 'arrowdown'], what: 'parent / first child' },
  { where: 'Graph', keys: ['arrowleft', 'arrowright'], what: 'siblings' },
  { where: 'Graph', keys: ['enter'], what: 'inspect (a chain: expand it)' },
  { where: 'Graph', keys: ['escape'], what: 'clear the selection' },
  { where: 'Context entries', keys: ['arrowup', 'arrowdown'], what: 'move' },
  { where: 'Details tabs', keys: ['arrowleft', 'arrowright'], what: 'switch tab' },
  { where: 'Palette', keys: ['arrowup', 'arrowdown', 'enter', 'escape'], what: 'move, run, close' },
];

export function ShortcutsOverlay() {
  const open = useCanopy((s) => s.shortcutsOpen);
  return open ? <ShortcutsDialog /> : null;
}

function ShortcutsDialog() {
  const setOpen = useCanopy((s) => s.setShortcutsOpen);
  const actions = useRegisteredActions();
  const box = useRef<HTMLDivElement>(null);
  const before = useRef<Element | null>(document.activeElement);
  useEffect(() => {
    box.current?.focus();
    const back = before.current;
    return () => {
      if (back instanceof HTMLElement) back.focus();
    };
  }, []);
  const groups = new Map<ActionGroup, CommandAction[]>();
  for (const a of actions) {
    if (!a.shortcut?.length) continue;
    groups.set(a.group, [...(groups.get(a.group) ?? []), a]);
  }
  return (
    <div className="overlay-backdrop" onMouseDown={() => setOpen(false)}>
      <div
        className="shortcuts"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts"
        tabIndex={-1}
        ref={box}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            setOpen(false);
          }
        }}
      >
        <h2>Keyboard shortcuts</h2>
        <div className="shortcut-columns">
          {[...groups].map(([group, list]) => (
            <section key={group}>
              <h3>{group}</h3>
              <dl>
                {list.map((a) => (
                  <div key={a.id} className="shortcut-row" data-action-id={a.id}>
                    <dt>{a.title}</dt>
                    <dd>
                      {a.shortcut!.map((s) => (
                        <Keys key={s} shortcut={s} />
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
          <section>
            <h3>In a focused list</h3>
            <dl>
              {LIST_KEYS.map((k, i) => (
                <div key={i} className="shortcut-row">
                  <dt>
                    <span className="muted">{k.where}:</span> {k.what}
                  </dt>
                  <dd>
                    {k.keys.map((s) => (
                      <Keys key={s} shortcut={s} />
                    ))}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
        <div className="muted small">Every action is also in the command palette. Esc closes this.</div>
      </div>
    </div>
  );
}

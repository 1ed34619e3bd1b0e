import { Fragment } from 'react';
import { isMac, shortcutKeys } from '../../commands/shortcuts';

const MAC = isMac();

/** A shortcut drawn as keycaps. */
export function Keys({ shortcut }: { shortcut: string }) {
  return (
    <span className="keys" aria-label={shortcutKeys(shortcut, MAC).join('+')}>
      {shortcutKeys(shortcut, MAC).map((k, i) => (
        <Fragment key={i}>
          <kbd>{k}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

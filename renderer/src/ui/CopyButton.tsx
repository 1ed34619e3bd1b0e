import { useState } from 'react';
import { copyText } from '../lib/clipboard';

export function CopyButton({
  text,
  label = 'copy',
  title,
}: {
  text: string | (() => string);
  label?: string;
  title?: string;
}) {
  const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="link-button copy-button"
      title={title ?? 'Copy to the clipboard'}
      onClick={(e) => {
        // Also used inside <summary>: copying must not toggle the section.
        e.preventDefault();
        e.stopPropagation();
        void copyText(typeof text === 'function' ? text() : text).then((ok) => {
          setState(ok ? 'done' : 'failed');
          setTimeout(() => setState('idle'), 1200);
        });
      }}
    >
      {state === 'done' ? 'copied' : state === 'failed' ? 'copy failed' : label}
    </button>
  );
}

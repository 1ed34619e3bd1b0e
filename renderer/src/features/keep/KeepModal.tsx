/** The keep dialogs' frame: a backdrop (a click on it closes), a heading with ✕, Esc closes. */
import type { FormEvent, ReactNode, RefObject } from 'react';
import { useEscape } from '../../lib/use-escape';
import './keep.css';

export function KeepModal({
  label,
  testId,
  title,
  onClose,
  onSubmit,
  boxRef,
  children,
}: {
  label: string;
  testId: string;
  title: string;
  onClose: () => void;
  /** Given: the box is a form (Enter in a field submits). */
  onSubmit?: () => void;
  boxRef?: RefObject<HTMLDivElement | null>;
  children: ReactNode;
}) {
  useEscape(onClose);
  const head = (
    <div className="modal-head">
      <h2>{title}</h2>
      <span className="grow" />
      <button type="button" className="compact" onClick={onClose} aria-label="Close">
        ✕
      </button>
    </div>
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit?.();
  };
  return (
    <div
      className="modal-backdrop"
      role="dialog"
      aria-modal="true"
      aria-label={label}
      data-testid={testId}
      onClick={(e) => e.target === e.currentTarget && onClose()}
    >
      {onSubmit ? (
        <form className="modal keep-box" onSubmit={submit}>
          {head}
          {children}
        </form>
      ) : (
        <div className="modal keep-box" ref={boxRef}>
          {head}
          {children}
        </div>
      )}
    </div>
  );
}

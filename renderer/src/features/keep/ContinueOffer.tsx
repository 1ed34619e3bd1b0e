/** pi's own choice for a session whose folder is gone: fork it into another folder, or cancel. */
import { useEffect, useRef } from 'react';
import { useEscape } from '../../lib/use-escape';
import { useCanopy } from '../../app-context';
import { useContinueInPi } from './use-continue';

export function ContinueOffer() {
  const offer = useCanopy((s) => s.continueOffer);
  return offer ? <Offer offer={offer} /> : null;
}

function Offer({ offer }: { offer: { sessionId: string; cwd: string } }) {
  const run = useContinueInPi();
  const first = useRef<HTMLButtonElement>(null);
  const setOffer = useCanopy((s) => s.setContinueOffer);
  const close = () => setOffer(null);
  useEscape(close);
  useEffect(() => {
    setTimeout(() => first.current?.focus(), 0);
  }, []);
  return (
    <div
      className="modal-backdrop"
      role="alertdialog"
      aria-modal="true"
      aria-label="The session's folder is gone"
      data-testid="continue-offer"
    >
      <div className="modal keep-offer">
        <p>
          This session ran in <code>{offer.cwd}</code>, which no longer exists.
        </p>
        <p className="muted small">
          As pi does: fork it into your home folder (a new session id; the original is kept), or cancel.
        </p>
        <div className="keep-buttons">
          <button
            type="button"
            ref={first}
            className="primary-button"
            data-testid="continue-fork"
            onClick={() => void run(offer.sessionId, true)}
          >
            Fork into the home folder
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}

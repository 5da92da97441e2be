// The buttons of a back-office form dialog: "Cancel" and "Review" on its form step; then "Cancel"
// and the confirming action until the write is done, then only "Close" (the outcome line above
// stays, so "Done" is seen, not guessed).
import type { ReactNode } from 'react';
import type { OperatorWriteName } from '../../../../shared/desk/back-office';
import type { BackOfficeAction } from '../../components/backOffice/useBackOfficeAction';

export function DialogActions<E extends OperatorWriteName>({
  action,
  onClose,
  children,
}: {
  action: BackOfficeAction<E>;
  onClose: () => void;
  children: ReactNode;
}) {
  const done = action.state.phase === 'done';
  return (
    <div className="actions">
      <button type="button" className={done ? 'button button-primary' : 'button'} onClick={onClose}>
        {done ? 'Close' : 'Cancel'}
      </button>
      {!done && children}
    </div>
  );
}

// The buttons of a back-office form dialog: "Cancel" and "Review" on its form step; then "Cancel"
// and the confirming action until the write is done, then only "Close" (the outcome line above
// stays, so "Done" is seen, not guessed).
import type { ReactNode } from 'react';
import type { OperatorWriteName } from '@shared/desk/back-office';
import { ActionStatus } from '@renderer/components/backOffice/ActionStatus';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import type { BackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';

export function DialogActions<E extends OperatorWriteName>({
  action,
  onClose,
  done,
  children,
}: {
  action: BackOfficeAction<E>;
  onClose: () => void;
  /** What stands beside "Close" once done (then "Close" is not the primary button). */
  done?: ReactNode;
  children: ReactNode;
}) {
  const isDone = action.state.phase === 'done';
  return (
    <div className="actions">
      <button type="button" className={isDone && !done ? 'button button-primary' : 'button'} onClick={onClose}>
        {isDone ? 'Close' : 'Cancel'}
      </button>
      {isDone ? done : children}
    </div>
  );
}

/**
 * The outcome line and the buttons under a dialog's one write: the confirming button sends it, by
 * `onConfirm` (a review step) or by submitting the dialog's form; either waits while the outcome is
 * unsure (the same key is checked again, never sent anew); "Back" where the step has one.
 */
export function WriteActions<E extends OperatorWriteName>({
  action,
  onClose,
  onConfirm,
  onBack,
  done,
  outcome,
  children,
}: {
  action: BackOfficeAction<E>;
  onClose: () => void;
  onConfirm?: () => void;
  onBack?: () => void;
  done?: ReactNode;
  /** What the write's answer tells, under its outcome line. */
  outcome?: ReactNode;
  /** The confirming button's label. */
  children: ReactNode;
}) {
  // A form sent once and not known to be made is not sent again (a new key could make it twice):
  // its outcome line offers "Check again".
  const blocked = action.busy ? 'Sending…' : action.state.phase === 'unsure' ? 'Not sure yet whether it was made: check again' : null;
  return (
    <>
      <ActionStatus action={action} />
      {outcome}
      <DialogActions action={action} onClose={onClose} done={done}>
        {onBack && (
          <button type="button" className="button" disabled={action.busy} onClick={onBack}>
            Back
          </button>
        )}
        <GatedButton
          can={action.endpoint}
          type={onConfirm ? 'button' : 'submit'}
          className="button button-primary"
          disabledReason={blocked}
          onClick={onConfirm}
        >
          {children}
        </GatedButton>
      </DialogActions>
    </>
  );
}

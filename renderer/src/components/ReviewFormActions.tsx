import type { ReactNode } from 'react';

// The buttons of a form's first step, in every dialog that reviews before it writes (the
// warehouse's finish, the back office's forms): "Cancel", and "Review" submitting the form.
export function ReviewFormActions({ onClose, spanAll = false }: { onClose: () => void; spanAll?: boolean }) {
  return (
    <div className={spanAll ? 'actions span-all' : 'actions'}>
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" className="button button-primary">
        Review
      </button>
    </div>
  );
}

// The buttons of the step that sends what was reviewed (the warehouse's finish, the retirement's
// finalize): "Back", disabled while sending, and the confirming button, aria-disabled rather than
// disabled: pressed, it keeps focus until the outcome takes it.
export function ReviewConfirmActions({
  onBack,
  busy,
  blocked = false,
  onConfirm,
  children,
}: {
  onBack: () => void;
  busy: boolean;
  /** Not sendable for a reason shown above (besides sending). */
  blocked?: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <div className="actions">
      <button type="button" className="button" onClick={onBack} disabled={busy}>
        Back
      </button>
      <button
        type="button"
        className="button button-primary"
        onClick={() => {
          if (!busy && !blocked) onConfirm();
        }}
        aria-disabled={busy || blocked}
      >
        {children}
      </button>
    </div>
  );
}

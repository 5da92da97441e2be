// A modal dialog on the native <dialog> element: focus trapping, Escape and the backdrop come from
// the browser, and it has the dialog role with an accessible name from its title. It opens with focus
// on its first field (so typing goes there, not to "×") and, once closed, gives focus back to the
// element that had it when it opened (or, when that is gone, to what `returnFocus` names). A dialog of
// several steps names its `step`: on each change focus goes to the new step's first field, else its
// heading (or what it marks with data-step-focus), never to <body>. While a dialog's work cannot be
// stopped (a desk call under way), it names why in `closeRefused`: Escape and "×" then leave it open
// and say so (closed, it would finish unseen and act on whatever was opened since). The "×" is named
// "Close dialog", so a dialog's own "Close" button is the only control of that name.
import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { focusElement } from '../lib/focus';
import { say } from './Announcer';

const FIELDS = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';
const FOCUSABLE = `${FIELDS}, button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])`;

/** The element a dialog opens on: its first field, else its first control, else nothing (the browser's choice). */
function initialFocus(body: HTMLElement): HTMLElement | null {
  const checkedRadio = body.querySelector<HTMLInputElement>('input[type="radio"]:checked:not([disabled])');
  const field = body.querySelector<HTMLElement>(FIELDS);
  // A radio group is entered on its checked radio, as Tab would.
  if (field instanceof HTMLInputElement && field.type === 'radio' && checkedRadio?.name === field.name) return checkedRadio;
  return field ?? body.querySelector<HTMLElement>(FOCUSABLE);
}

/** Where a new step starts: what it marks, else its first field, else its heading, else its first control. */
function stepFocus(body: HTMLElement): HTMLElement | null {
  return (
    body.querySelector<HTMLElement>('[data-step-focus]') ??
    body.querySelector<HTMLElement>(FIELDS) ??
    body.querySelector<HTMLElement>('h3') ??
    body.querySelector<HTMLElement>(FOCUSABLE)
  );
}

export function Dialog({
  title,
  onClose,
  children,
  wide = false,
  step,
  returnFocus,
  closeRefused = null,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  /** The current step of a dialog of several: focus moves into each new one. */
  step?: string;
  /** Where focus goes on closing when the opener is no longer on the page (or cannot take focus). */
  returnFocus?: () => Element | null | undefined;
  /** Why the dialog cannot be closed now (its work is under way), or null when it can. */
  closeRefused?: string | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const refusedId = useId();
  const requestClose = () => {
    if (closeRefused) say(closeRefused);
    else onClose();
  };
  const returnFocusRef = useRef(returnFocus);
  useLayoutEffect(() => {
    returnFocusRef.current = returnFocus;
  });
  useEffect(() => {
    const dialog = ref.current;
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (dialog && !dialog.open) {
      dialog.showModal();
      const first = bodyRef.current ? initialFocus(bodyRef.current) : null;
      first?.focus();
    }
    return () => {
      dialog?.close();
      // Back to the opener if it is still on the page (a finished reservation's row may be gone).
      if (!focusElement(opener)) focusElement(returnFocusRef.current?.());
    };
  }, []);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    const target = bodyRef.current ? stepFocus(bodyRef.current) : null;
    focusElement(target);
  }, [step]);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        // Escape refused before the browser turns it into a cancel request (a second one in a row
        // could not be refused there).
        if (event.key === 'Escape' && closeRefused) {
          event.preventDefault();
          say(closeRefused);
        }
      }}
      onCancel={(event) => {
        event.preventDefault();
        requestClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="icon-button"
          title={closeRefused ?? 'Close dialog'}
          aria-disabled={closeRefused ? true : undefined}
          aria-describedby={closeRefused ? refusedId : undefined}
          onClick={requestClose}
        >
          <span aria-hidden="true">×</span>
          {/* Not "Close": a done dialog's own "Close" button would share its name. */}
          <span className="visually-hidden">Close dialog</span>
        </button>
      </header>

      <div className="dialog-body" ref={bodyRef}>
        {children}
        {closeRefused && (
          <p id={refusedId} className="muted">
            {closeRefused}
          </p>
        )}
      </div>
    </dialog>
  );
}

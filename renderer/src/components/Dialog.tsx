// A modal dialog on the native <dialog> element: focus trapping, Escape and the backdrop come from
// the browser, and it has the dialog role with an accessible name from its title. It opens with focus
// on its first field (so typing goes there, not to "×") and, once closed, gives focus back to the
// element that had it when it opened (or, when that is gone, to what `returnFocus` names). A dialog of
// several steps names its `step`: on each change focus goes to the new step's first field, else its
// heading (or what it marks with data-step-focus), never to <body>.
import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { focusElement } from '../lib/focus';

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
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  /** The current step of a dialog of several: focus moves into each new one. */
  step?: string;
  /** Where focus goes on closing when the opener is no longer on the page (or cannot take focus). */
  returnFocus?: () => Element | null | undefined;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
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
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" title="Close" onClick={onClose}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Close</span>
        </button>
      </header>
      <div className="dialog-body" ref={bodyRef}>
        {children}
      </div>
    </dialog>
  );
}

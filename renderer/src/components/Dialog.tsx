// A modal dialog on the native <dialog> element: focus trapping, Escape and the backdrop come from
// the browser, and it has the dialog role with an accessible name from its title. It opens with focus
// on its first field (so typing goes there, not to "×") and, once closed, gives focus back to the
// element that had it when it opened.
import { useEffect, useId, useRef, type ReactNode } from 'react';

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

export function Dialog({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
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
      if (opener?.isConnected) opener.focus();
    };
  }, []);
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

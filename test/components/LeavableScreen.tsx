// The warehouse screen's part for a dialog under test: the dialog open until it closes itself, on a
// screen the user can leave ("Another screen" takes the whole screen, dialog and all, off the page).
import { useState, type ReactNode } from 'react';

export function LeavableScreen({ dialog }: { dialog: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(true);
  const [shown, setShown] = useState(true);
  return shown ? (
    <>
      <button type="button" onClick={() => setShown(false)}>
        Another screen
      </button>
      {open && dialog(() => setOpen(false))}
    </>
  ) : null;
}

// "?" shows the keyboard shortcuts: what the desk's keys do, on any screen.
import { create } from 'zustand';
import { MOD_LABEL } from './Sidebar';
import { Dialog } from './Dialog';
import { SCREENS } from '../stores/navigation';

export const useShortcutsHelp = create<{ open: boolean; setOpen(open: boolean): void }>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

const SHORTCUTS: Array<[keys: string, what: string]> = [
  ['?', 'Show these shortcuts'],
  [`${MOD_LABEL}F`, "Search this screen's list"],
  [`${MOD_LABEL}R`, 'Sync now'],
  ...SCREENS.map((s, i): [string, string] => [`${MOD_LABEL}${i + 1}`, `Go to ${s.label}`]),
  ['↑ ↓', 'Move to the row above or below'],
  ['Page Up, Page Down', 'Move a screen of rows up or down'],
  ['Home End', 'Move to the first or last row of the list'],
  ['Enter', 'Open the row'],
  ['Space', 'Select the row (lists with bulk actions)'],
  ['Shift+click', 'Select every row from the last one clicked'],
  ['Escape', 'Leave the page or details open, close a dialog'],
];

export function ShortcutsDialog() {
  const open = useShortcutsHelp((s) => s.open);
  const setOpen = useShortcutsHelp((s) => s.setOpen);
  if (!open) return null;
  return (
    <Dialog title="Keyboard shortcuts" onClose={() => setOpen(false)}>
      <table className="simple-table" aria-label="Keyboard shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

// Desktop shortcuts: Ctrl/Cmd+F focuses the screen's search, Ctrl/Cmd+R syncs (instead of
// reloading the page), Ctrl/Cmd+1..6 switch screens; "?" shows them all, Escape leaves the page or
// details open (a project's page, a retirement's or an organization's details). Arrow keys between
// rows are the lists' own (lib/rowKeyboard.ts).
import { useEffect } from 'react';
import { SCREENS, useNavigation } from './stores/navigation';
import { useSync } from './stores/sync';
import { useShortcutsHelp } from './components/ShortcutsDialog';

/** Whether typing goes to a text field (its keys are its own). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
}

function plainKey(event: KeyboardEvent) {
  if (event.defaultPrevented || typingIn(event.target)) return;
  // A modal dialog handles its own keys (Escape closes it).
  if (document.querySelector('dialog[open]')) return;
  if (event.key === '?') {
    event.preventDefault();
    useShortcutsHelp.getState().setOpen(true);
  } else if (event.key === 'Escape') {
    const navigation = useNavigation.getState();
    if (navigation.screen === 'projects' && navigation.projectId) {
      event.preventDefault();
      navigation.openProject(null);
    } else if (navigation.screen === 'retirements' && navigation.retirementId) {
      event.preventDefault();
      navigation.openRetirement(null);
    } else {
      const close = document.querySelector<HTMLElement>('[data-closes-on-escape]');
      if (close) {
        event.preventDefault();
        close.click();
      }
    }
  }
}

export function useKeyboardShortcuts() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) && !event.altKey) {
        plainKey(event);
        return;
      }
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 'f') {
        const search = document.querySelector<HTMLInputElement>('[data-search-field]');
        if (search) {
          event.preventDefault();
          search.focus();
          search.select();
        }
      } else if (key === 'r' && !event.shiftKey) {
        event.preventDefault();
        void useSync.getState().run();
      } else if (/^[1-9]$/.test(key)) {
        const target = SCREENS[Number(key) - 1];
        if (target) {
          event.preventDefault();
          useNavigation.getState().go(target.id);
        }
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

// Desktop shortcuts: Ctrl/Cmd+F focuses the screen's search, Ctrl/Cmd+R syncs (instead of
// reloading the page), Ctrl/Cmd+1..6 switch screens.
import { useEffect } from 'react';
import { SCREENS, useNavigation } from './stores/navigation';
import { useSync } from './stores/sync';

export function useKeyboardShortcuts() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
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

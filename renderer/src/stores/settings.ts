// Desk settings (theme, sync interval), loaded from and saved to the desk. The theme is applied as
// data-theme on <html>; "system" is resolved by CSS through prefers-color-scheme.
//
// Saves may overlap (arrowing through the theme radios sends one per radio) and their answers may
// come back in any order, so each save has a sequence number: a setting shows the answer of the
// latest save of it only, never an older one's, and a failure puts back what the desk last said it
// stored, and only when it is the latest save of that setting (an older one failing changes nothing
// on screen: the newer choice decides, and reports its own failure). An answer names every setting:
// the ones it did not save are taken from it only when no newer choice of them is waiting.
import { create } from 'zustand';
import type { Theme } from '@shared/desk/api';
import { desk } from '../lib/desk';

interface Settings {
  theme: Theme;
  syncIntervalMinutes: number | null;
}

interface SettingsState extends Settings {
  loaded: boolean;
  load(): Promise<void>;
  save(change: { theme?: Theme; syncIntervalMinutes?: number }): Promise<void>;
}

type Key = keyof Settings;

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** The number of the last save started (0: none yet). */
let saves = 0;
/** Per setting: the save whose value is on screen (its choice, or its answer); 0 is the load. */
const shown: Record<Key, number> = { theme: 0, syncIntervalMinutes: 0 };
/** Per setting: what the desk last said it stored, from the newest save (by number) it answered, or the load. */
const stored: { [K in Key]: { save: number; value: Settings[K] } } = {
  theme: { save: 0, value: 'system' },
  syncIntervalMinutes: { save: 0, value: null },
};

export const useSettings = create<SettingsState>()((set) => {
  /** Shows `value` for `key` (the theme also on <html>). */
  const show = <K extends Key>(key: K, value: Settings[K]) => {
    if (key === 'theme') applyTheme(value as Theme);
    set({ [key]: value } as Pick<Settings, K>);
  };
  /** The desk's answer to save number `save` (or to a load, numbered as the last save before it). */
  const answered = <K extends Key>(key: K, save: number, value: Settings[K]) => {
    if (save >= stored[key].save) Object.assign(stored[key], { save, value });
    // An older save answering late is shown only when no newer choice is on screen (none was made,
    // or the newer one failed and was put back).
    if (save >= shown[key]) {
      shown[key] = save;
      show(key, value);
    }
  };
  /** A whole answer of the desk: the settings it saved, and the others as it has them (unless chosen since). */
  const answeredAll = (settings: Settings, save: number, saved: readonly Key[]) => {
    for (const key of ['theme', 'syncIntervalMinutes'] as const) {
      // A choice the desk has not answered yet stays on screen: its own save answers for it.
      if (!saved.includes(key) && shown[key] > stored[key].save) continue;
      if (key === 'theme') answered(key, save, settings.theme);
      else answered(key, save, settings.syncIntervalMinutes);
    }
    set({ loaded: true });
  };
  return {
    theme: 'system',
    syncIntervalMinutes: null,
    loaded: false,
    load: async () => {
      const asked = saves;
      answeredAll(await desk('settings.get', {}), asked, []);
    },
    save: async (change) => {
      const save = ++saves;
      const keys = (['theme', 'syncIntervalMinutes'] as const).filter((key) => change[key] !== undefined);
      for (const key of keys) shown[key] = save;
      // Show the theme (and the picker's choice) at once; put it back if the desk refuses to store it.
      if (change.theme) show('theme', change.theme);
      try {
        answeredAll(await desk('settings.set', change), save, keys);
      } catch (error) {
        const latest = keys.filter((key) => shown[key] === save);
        if (keys.length > 0 && latest.length === 0) return; // superseded: the newer choice decides
        for (const key of latest) {
          shown[key] = stored[key].save;
          show(key, stored[key].value);
        }
        throw error;
      }
    },
  };
});

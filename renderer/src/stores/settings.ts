// Desk settings (theme, sync interval), loaded from and saved to the desk. The theme is applied as
// data-theme on <html>; "system" is resolved by CSS through prefers-color-scheme.
import { create } from 'zustand';
import type { Theme } from '../../../shared/desk/api';
import { desk } from '../lib/desk';

interface SettingsState {
  theme: Theme;
  syncIntervalMinutes: number | null;
  loaded: boolean;
  load(): Promise<void>;
  save(change: { theme?: Theme; syncIntervalMinutes?: number }): Promise<void>;
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

export const useSettings = create<SettingsState>()((set, get) => ({
  theme: 'system',
  syncIntervalMinutes: null,
  loaded: false,
  load: async () => {
    const settings = await desk('settings.get', {});
    applyTheme(settings.theme);
    set({ ...settings, loaded: true });
  },
  save: async (change) => {
    const previous = get().theme;
    // Show the theme (and the picker's choice) at once; put both back if the desk refuses to store it.
    if (change.theme) {
      applyTheme(change.theme);
      set({ theme: change.theme });
    }
    try {
      const settings = await desk('settings.set', change);
      applyTheme(settings.theme);
      set({ ...settings, loaded: true });
    } catch (error) {
      applyTheme(previous);
      set({ theme: previous });
      throw error;
    }
  },
}));

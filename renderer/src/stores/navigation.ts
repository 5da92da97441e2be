// State-based navigation: which screen is shown and which record is open on it. No URL routing:
// the web host's launch URL carries a one-time secret and Electron loads a file, so the address bar
// is not ours to use.
import { create } from 'zustand';

export const SCREENS = [
  { id: 'projects', label: 'Projects' },
  { id: 'inventories', label: 'Inventories' },
  { id: 'retirements', label: 'Retirements' },
  { id: 'warehouse', label: 'Warehouse' },
  { id: 'organizations', label: 'Organizations' },
  { id: 'settings', label: 'Connections & settings' },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];

interface NavigationState {
  screen: ScreenId;
  /** The project page open on the Projects screen, if any. */
  projectId: string | null;
  /** The retirement whose details are open on the Retirements screen, if any. */
  retirementId: string | null;
  go(screen: ScreenId): void;
  openProject(id: string | null): void;
  openRetirement(id: string | null): void;
}

export const useNavigation = create<NavigationState>()((set) => ({
  screen: 'projects',
  projectId: null,
  retirementId: null,
  go: (screen) => set({ screen }),
  openProject: (projectId) => set({ screen: 'projects', projectId }),
  openRetirement: (retirementId) => set({ screen: 'retirements', retirementId }),
}));

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
  /** The organization whose details are open on the Organizations screen, if any. */
  organizationId: string | null;
  /** Its name as the linking screen knew it, for an organization the synced list does not hold. */
  organizationName: string | null;
  go(screen: ScreenId): void;
  openProject(id: string | null): void;
  openRetirement(id: string | null): void;
  openOrganization(id: string | null, name?: string): void;
  /** Closes every open record (they belonged to the registry that was active until now). */
  closeRecords(): void;
}

export const useNavigation = create<NavigationState>()((set) => ({
  screen: 'projects',
  projectId: null,
  retirementId: null,
  organizationId: null,
  organizationName: null,
  go: (screen) => set({ screen }),
  openProject: (projectId) => set({ screen: 'projects', projectId }),
  openRetirement: (retirementId) => set({ screen: 'retirements', retirementId }),
  openOrganization: (organizationId, name) => set({ screen: 'organizations', organizationId, organizationName: name ?? null }),
  closeRecords: () => set({ projectId: null, retirementId: null, organizationId: null, organizationName: null }),
}));

// State-based navigation: which screen is shown and which record is open on it. The address follows
// this state and back/forward walk it (lib/route.ts).
import { create } from 'zustand';

// `mark`: what the narrow window's rail shows of each screen, two letters, none repeated (a first
// letter alone repeats: Organizations, Operators; Connections, Credit history; Apps, Audit log).
export const SCREENS = [
  { id: 'projects', label: 'Projects', mark: 'Pr' },
  { id: 'inventories', label: 'Inventories', mark: 'In' },
  { id: 'retirements', label: 'Retirements', mark: 'Re' },
  { id: 'warehouse', label: 'Warehouse', mark: 'Wa' },
  { id: 'organizations', label: 'Organizations', mark: 'Or' },
  { id: 'settings', label: 'Connections & settings', mark: 'Se' },
] as const;

/**
 * The back office's screens (the operator endpoints of the active connection), a group of their own
 * in the sidebar; no Ctrl+number shortcuts (those stay the six above). Each screen is a file of
 * screens/back-office/ (see its index.ts).
 */
export const BACK_OFFICE_SCREENS = [
  { id: 'bo-organizations', label: 'Organizations (operator)', mark: 'OO' },
  { id: 'bo-operators', label: 'Operators', mark: 'Op' },
  { id: 'bo-projects', label: 'Projects (operator)', mark: 'PO' },
  { id: 'bo-issuance', label: 'Issuance', mark: 'Is' },
  { id: 'bo-transfers', label: 'Transfers', mark: 'Tr' },
  { id: 'bo-credit-history', label: 'Credit history', mark: 'Ch' },
  { id: 'bo-apps', label: 'Apps and installations', mark: 'Ap' },
  { id: 'bo-audit', label: 'Audit log', mark: 'Au' },
] as const;
export type BackOfficeScreenId = (typeof BACK_OFFICE_SCREENS)[number]['id'];
export type ScreenId = (typeof SCREENS)[number]['id'] | BackOfficeScreenId;

/** Every screen with its label (the window title and the main landmark name). */
export const ALL_SCREENS: readonly { id: ScreenId; label: string }[] = [...SCREENS, ...BACK_OFFICE_SCREENS];
export const screenLabel = (id: ScreenId): string => {
  const screen = ALL_SCREENS.find((s) => s.id === id);
  if (!screen) return '';
  return BACK_OFFICE_SCREENS.some((s) => s.id === id) ? `Back office: ${screen.label}` : screen.label;
};

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
  /**
   * What the open back-office screen shows (its record, its filters), by name: e.g. the Credit
   * history's `{ creditId }`, an organization's `{ organizationId }`. Set by openBackOffice.
   */
  backOffice: Record<string, string>;
  go(screen: ScreenId): void;
  /** Opens a back-office screen on a record (links between back-office screens and from the audit log). */
  openBackOffice(screen: BackOfficeScreenId, params?: Record<string, string>): void;
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
  backOffice: {},
  go: (screen) => set({ screen, backOffice: {} }),
  openBackOffice: (screen, params = {}) => set({ screen, backOffice: params }),
  openProject: (projectId) => set({ screen: 'projects', projectId }),
  openRetirement: (retirementId) => set({ screen: 'retirements', retirementId }),
  openOrganization: (organizationId, name) => set({ screen: 'organizations', organizationId, organizationName: name ?? null }),
  closeRecords: () => set({ projectId: null, retirementId: null, organizationId: null, organizationName: null, backOffice: {} }),
}));

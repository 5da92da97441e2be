// The desk's shell: navigation, the offline banner, and the current screen.
import { useEffect, useRef, useState } from 'react';
import { SESSION_LOST_EVENT, SESSION_LOST_MESSAGE } from './bridge/web';
import { OfflineBanner } from './components/OfflineBanner';
import { ReservationNotices } from './components/ReservationNotices';
import { Sidebar } from './components/Sidebar';
import { ShortcutsDialog } from './components/ShortcutsDialog';
import { Announcer } from './components/Announcer';
import { useKeyboardShortcuts } from './keyboard';
import { screenLabel, useNavigation, type ScreenId } from './stores/navigation';
import { useBackOffice } from './stores/backOffice';
import { BACK_OFFICE_COMPONENTS } from './screens/back-office';
import { useSync } from './stores/sync';
import { useSettings } from './stores/settings';
import { useConnections } from './stores/connections';
import { ProjectsScreen } from './screens/projects/ProjectsScreen';
import { InventoriesScreen } from './screens/inventories/InventoriesScreen';
import { RetirementsScreen } from './screens/retirements/RetirementsScreen';
import { WarehouseScreen } from './screens/warehouse/WarehouseScreen';
import { OrganizationsScreen } from './screens/organizations/OrganizationsScreen';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { announce, setPageState } from './lib/signals';
import { onDeskEvent } from './lib/desk';
import { watchFocusLoss } from './lib/focus';
import { usePageTitle } from './lib/pageTitle';

const SCREEN_COMPONENTS: Record<ScreenId, () => React.JSX.Element> = {
  projects: ProjectsScreen,
  inventories: InventoriesScreen,
  retirements: RetirementsScreen,
  warehouse: WarehouseScreen,
  organizations: OrganizationsScreen,
  settings: SettingsScreen,
  ...BACK_OFFICE_COMPONENTS,
};

/** True once the web host has refused this page's session (see bridge/web.ts). */
function useSessionLost(): boolean {
  const [lost, setLost] = useState(false);
  useEffect(() => {
    const onLost = () => setLost(true);
    window.addEventListener(SESSION_LOST_EVENT, onLost);
    return () => window.removeEventListener(SESSION_LOST_EVENT, onLost);
  }, []);
  return lost;
}

/** The window title names the open record (lib/pageTitle.ts), else the screen. */
function useWindowTitle(screen: ScreenId) {
  const record = usePageTitle((s) => s.record);
  useEffect(() => {
    document.title = `${record ?? screenLabel(screen)} · Registry Desk`;
  }, [screen, record]);
}

/**
 * On moving to another screen (Ctrl+1–6, the sidebar, a link), focus goes to the new screen's
 * heading so a keyboard or screen-reader user starts there.
 */
function useFocusOnScreenChange(screen: ScreenId) {
  const mainRef = useRef<HTMLElement>(null);
  const shown = useRef<ScreenId | null>(null);
  useEffect(() => {
    const first = shown.current === null;
    shown.current = screen;
    if (first) return;
    // The new screen put focus somewhere itself (the details panel of the record a link opened): leave it there.
    if (document.activeElement?.closest('main > .screen')) return;
    const heading = mainRef.current?.querySelector<HTMLElement>('h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [screen]);
  return mainRef;
}

export function App() {
  const screen = useNavigation((s) => s.screen);
  const sessionLost = useSessionLost();
  // Each screen is remounted for another registry, so nothing it kept open (a dialog, a selection) outlives the switch.
  const registrySwitches = useConnections((s) => s.switches);
  useKeyboardShortcuts();
  useEffect(() => {
    const stopSync = useSync.getState().start();
    const stopBackOffice = useBackOffice.getState().start();
    // Settings and connections failing to load is shown on their screen; the theme keeps "system".
    void useSettings
      .getState()
      .load()
      .catch(() => undefined);
    void useConnections.getState().load();
    // Another window (or the desk's menu) may switch or change connections, or settings: follow it.
    const stopConnections = onDeskEvent((event) => {
      if (event.type === 'connections.changed') void useConnections.getState().load();
      // A theme chosen in another tab or window applies here too.
      if (event.type === 'settings.changed')
        void useSettings
          .getState()
          .load()
          .catch(() => undefined);
    });
    const stopFocusWatch = watchFocusLoss();
    setPageState('deskReady', 'true');
    announce('desk:ready');
    return () => {
      stopFocusWatch();
      stopSync();
      stopBackOffice();
      stopConnections();
    };
  }, []);
  const mainRef = useFocusOnScreenChange(screen);
  useWindowTitle(screen);
  const Screen = SCREEN_COMPONENTS[screen];
  if (sessionLost)
    return (
      <main className="session-lost" aria-label="Session ended">
        <h1>Registry Desk</h1>
        <p role="alert">{SESSION_LOST_MESSAGE}</p>
      </main>
    );
  return (
    <div className="app">
      <a
        href="#main-content"
        className="skip-link"
        onClick={(event) => {
          // The address names the screen (lib/route.ts), not a place on the page: move focus, leave the address alone.
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to main content
      </a>
      <Sidebar />
      <main ref={mainRef} id="main-content" tabIndex={-1} className="content" aria-label={screenLabel(screen)}>
        <OfflineBanner />
        <ReservationNotices />
        <Screen key={registrySwitches} />
      </main>
      <ShortcutsDialog />
      <Announcer />
    </div>
  );
}

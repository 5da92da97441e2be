// The address follows the screen (stores/navigation.ts): each change of screen or open record is a
// history entry with its own path, an opened path shows its screen, and back and forward move
// between them. The paths are shared/desk/pages.ts's; a back-office screen's record and filters are
// its query string.
import { BACK_OFFICE_SCREENS, SCREENS, useNavigation, type BackOfficeScreenId, type ScreenId } from '../stores/navigation';

type Shown = Pick<
  ReturnType<typeof useNavigation.getState>,
  'screen' | 'projectId' | 'retirementId' | 'organizationId' | 'organizationName' | 'backOffice'
>;
type ShownAt = Partial<Shown> & { screen: ScreenId };

const BACK_OFFICE_PREFIX = 'bo-';
const part = (value: string) => encodeURIComponent(value);

/** The path of what is shown: `/projects/1006`, `/back-office/audit?actor=…`, `/settings`. */
export function pathOf(shown: Omit<Shown, 'organizationName'>): string {
  const { screen } = shown;
  if (screen.startsWith(BACK_OFFICE_PREFIX)) {
    const query = new URLSearchParams(shown.backOffice).toString();
    return `/back-office/${screen.slice(BACK_OFFICE_PREFIX.length)}${query ? `?${query}` : ''}`;
  }
  const record =
    screen === 'projects'
      ? shown.projectId
      : screen === 'retirements'
        ? shown.retirementId
        : screen === 'organizations'
          ? shown.organizationId
          : null;
  return record ? `/${screen}/${part(record)}` : `/${screen}`;
}

/** What a path shows; null for a path that names no screen (the launch address `/`, `/index.html`). */
export function shownAt(pathname: string, search: string): ShownAt | null {
  const [root = '', record, ...rest] = pathname
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  if (rest.some((segment) => segment !== '')) return null;
  if (root === 'back-office') {
    const screen = `${BACK_OFFICE_PREFIX}${record ?? ''}` as BackOfficeScreenId;
    if (!BACK_OFFICE_SCREENS.some((s) => s.id === screen)) return null;
    return { screen, backOffice: Object.fromEntries(new URLSearchParams(search)) };
  }
  const screen = SCREENS.find((s) => s.id === root)?.id;
  if (!screen) return null;
  const id = record || null;
  if (screen === 'projects') return { screen, projectId: id };
  if (screen === 'retirements') return { screen, retirementId: id };
  if (screen === 'organizations') return { screen, organizationId: id, organizationName: null };
  return id ? null : { screen };
}

const here = () => location.pathname + location.search;

/** Shows what the address names (else keeps the first screen and names it in the address). */
function showAddress(): void {
  const shown = shownAt(location.pathname, location.search);
  if (shown)
    useNavigation.setState({ projectId: null, retirementId: null, organizationId: null, organizationName: null, backOffice: {}, ...shown });
}

/**
 * Starts following: the store takes the opened address, every later change of what is shown pushes
 * a history entry (a change made by back or forward pushes none), and back/forward show theirs.
 */
export function followAddress(): () => void {
  showAddress();
  const first = pathOf(useNavigation.getState());
  if (first !== here()) history.replaceState(null, '', first + location.hash);
  const onPop = () => showAddress();
  window.addEventListener('popstate', onPop);
  const stop = useNavigation.subscribe((state) => {
    const path = pathOf(state);
    if (path !== here()) history.pushState(null, '', path);
  });
  return () => {
    stop();
    window.removeEventListener('popstate', onPop);
  };
}

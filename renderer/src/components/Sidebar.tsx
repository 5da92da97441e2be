// The main navigation: one button per screen, with its keyboard shortcut. In a narrow window it
// collapses to a rail of two-letter marks, none repeated (styles/lists.css); each button keeps its
// whole name (for screen readers, hidden from sight in the rail) and a tooltip.
// The back office's screens are a second group, without shortcuts.
import { BACK_OFFICE_SCREENS, SCREENS, useNavigation } from '../stores/navigation';
import { ActiveRegistry } from './ActiveRegistry';
import { SyncIndicator } from './SyncIndicator';

const IS_MAC = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
export const MOD_LABEL = IS_MAC ? '⌘' : 'Ctrl+';

export function Sidebar() {
  const screen = useNavigation((s) => s.screen);
  const go = useNavigation((s) => s.go);
  return (
    <aside className="sidebar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span>Registry Desk</span>
      </div>
      <ActiveRegistry />
      <nav aria-label="Main">
        <ul>
          {SCREENS.map((item, index) => (
            <li key={item.id}>
              <button
                type="button"
                className="nav-item"
                aria-current={screen === item.id ? 'page' : undefined}
                aria-keyshortcuts={`Control+${index + 1}`}
                title={`${item.label} (${MOD_LABEL}${index + 1})`}
                onClick={() => go(item.id)}
              >
                <span className="nav-label">{item.label}</span>
                <span className="nav-mark" aria-hidden="true">
                  {item.mark}
                </span>
                <kbd aria-hidden="true">{`${MOD_LABEL}${index + 1}`}</kbd>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-labelledby="back-office-nav-heading" className="nav-group">
        <h2 id="back-office-nav-heading" className="nav-group-heading">
          Back office
        </h2>
        <ul>
          {BACK_OFFICE_SCREENS.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="nav-item"
                aria-current={screen === item.id ? 'page' : undefined}
                title={`Back office: ${item.label}`}
                onClick={() => go(item.id)}
              >
                <span className="nav-label">{item.label}</span>
                <span className="nav-mark nav-mark-back-office" aria-hidden="true">
                  {item.mark}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <SyncIndicator />
    </aside>
  );
}

// Which registry the desk is on, on every screen: its name, where it is, and "Demo data" for the
// embedded demo registry. The desk's screens show whatever the active connection synced, so this
// is the one answer to "whose data am I looking at?". In a narrow window's rail (styles/lists.css)
// the card is too narrow for its text: it shows the name's initial instead (in the demo's warning
// colours for the embedded registry), the whole text kept for screen readers and as its tooltip.
import { useConnections } from '../stores/connections';

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

export function ActiveRegistry() {
  const connection = useConnections((s) => s.active());
  const demo = connection?.kind === 'embedded';
  const where = connection ? (demo ? 'Embedded on this computer' : hostOf(connection.baseUrl)) : '';
  return (
    <section
      className="active-registry"
      aria-label="Active registry"
      title={connection ? `Registry: ${connection.name}, ${where}${demo ? ' (demo data)' : ''}` : undefined}
    >
      <span className="active-registry-label">Registry</span>
      {connection ? (
        <>
          <span className={`active-registry-initial${demo ? ' badge-warn' : ''}`} aria-hidden="true">
            {[...connection.name.trim()][0]?.toUpperCase() ?? '?'}
          </span>
          <strong className="active-registry-name">{connection.name}</strong>
          <span className="active-registry-where">{where}</span>
          {demo && <span className="badge badge-warn">Demo data</span>}
        </>
      ) : (
        <span className="active-registry-where">Loading…</span>
      )}
    </section>
  );
}

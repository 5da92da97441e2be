// Which registry the desk is on, on every screen: its name, where it is, and "Demo data" for the
// embedded demo registry. The desk's screens show whatever the active connection synced, so this
// is the one answer to "whose data am I looking at?".
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
  return (
    <section className="active-registry" aria-label="Active registry">
      <span className="active-registry-label">Registry</span>
      {connection ? (
        <>
          <strong className="active-registry-name">{connection.name}</strong>
          <span className="active-registry-where">
            {connection.kind === 'embedded' ? 'Embedded on this computer' : hostOf(connection.baseUrl)}
          </span>
          {connection.kind === 'embedded' && <span className="badge badge-warn">Demo data</span>}
        </>
      ) : (
        <span className="active-registry-where">Loading…</span>
      )}
    </section>
  );
}

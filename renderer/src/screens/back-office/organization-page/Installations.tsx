// The apps installed for an organization: each opens its app in the back office, with the
// installation's status and permissions in words.
import { humanize } from '@renderer/lib/format';
import { permissionsWords } from '@renderer/lib/registryWords';
import { useNavigation } from '@renderer/stores/navigation';
import type { PageOrganization } from './organization';

export function Installations({ installations }: { installations: PageOrganization['installations'] }) {
  const open = useNavigation((s) => s.openBackOffice);
  return (
    <section aria-labelledby="bo-installations">
      <h3 id="bo-installations">Installations</h3>
      {installations.length === 0 ? (
        <p className="muted">No app is installed for this organization.</p>
      ) : (
        <table className="simple-table" aria-label="Installations">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Status</th>
              <th scope="col">Permissions</th>
            </tr>
          </thead>
          <tbody>
            {installations.map((i) => (
              <tr key={i.id}>
                <td>
                  <button type="button" className="button-link" onClick={() => open('bo-apps', { appId: i.appId })}>
                    {i.appName}
                  </button>
                </td>
                <td>{humanize(i.status)}</td>
                <td>{permissionsWords(i.permissions)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

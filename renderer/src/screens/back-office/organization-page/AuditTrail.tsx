// The last operator actions that name an organization, on its page (OrganizationPage.tsx), with a
// link to the whole audit log filtered to it.
import { formatDateTime, humanize } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/desk';
import { useNavigation } from '@renderer/stores/navigation';
import { ErrorMessage } from '@renderer/components/feedback';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { auditActionWords } from '@renderer/lib/registryWords';
import { actorName, useOperatorNames } from '../operatorNames';

export function AuditTrail({ organizationId }: { organizationId: string }) {
  const open = useNavigation((s) => s.openBackOffice);
  const { data, error } = useBackOfficeRead('operatorSearchAudit', { query: { targetId: organizationId, limit: 20 } });
  const operatorNames = useOperatorNames();
  return (
    <section aria-labelledby="bo-audit-trail">
      <h3 id="bo-audit-trail">Audit trail</h3>
      <ErrorMessage error={error ? describeError(error) : null} />
      {data && data.data.entries.length === 0 && <p className="muted">No operator action names this organization.</p>}
      {data && data.data.entries.length > 0 && (
        <table className="simple-table" aria-label="Audit trail">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">By</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {data.data.entries.map((e) => (
              <tr key={e.id}>
                <td>{formatDateTime(e.at)}</td>
                <td title={e.action}>{auditActionWords(e.action)}</td>
                <td>{actorName(e, operatorNames)}</td>
                <td>{humanize(e.outcome)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" className="button-link" onClick={() => open('bo-audit', { targetId: organizationId })}>
        The whole audit log for this organization
      </button>
    </section>
  );
}

// Back office: Audit log. A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function AuditLogScreen() {
  return (
    <BackOfficePlaceholder title="Audit log" description="Every operator action, filtered by operator, action, target, outcome and date." />
  );
}

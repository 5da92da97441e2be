// Back office: Organizations. A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function OrganizationsScreen() {
  return (
    <BackOfficePlaceholder
      title="Organizations"
      description="Every organization, verified or not, with its accounts, projects, retirements, warehouse, installations and audit trail."
    />
  );
}

// Back office: Issuance. A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function IssuanceScreen() {
  return (
    <BackOfficePlaceholder
      title="Issuance"
      description="Issue a vintage of a project to an organization, with the buffer share, after a review."
    />
  );
}

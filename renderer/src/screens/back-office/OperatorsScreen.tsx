// Back office: Operators. A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function OperatorsScreen() {
  return (
    <BackOfficePlaceholder
      title="Operators"
      description="The registry's operator accounts: roles, creation and disabling (administrators)."
    />
  );
}

// Back office: Transfers. A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function TransfersScreen() {
  return (
    <BackOfficePlaceholder
      title="Transfers"
      description="Move credits between accounts, to and from warehouses, and cancel them, after a review."
    />
  );
}

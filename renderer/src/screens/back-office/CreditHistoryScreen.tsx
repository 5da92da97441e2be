// Back office: Credit history. A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function CreditHistoryScreen() {
  return (
    <BackOfficePlaceholder
      title="Credit history"
      description="Every ledger movement of one credit, from issuance to now, with who made it."
    />
  );
}

// The organizations every ledger bench trades between: the registry itself (its buffer and
// adjustment accounts), a buyer, and a validation and verification body for the projects. Sellers
// differ per bench and are made by each.
import type { RegistryContext } from '@registry/context';
import * as ops from '@registry/operations';

export function createMarketParties(r: RegistryContext): { buyerId: string; verificationBodyId: string } {
  ops.createOrganization(r, { fullName: 'Registry', type: 'registryOperator', countryCode: 'CH', verified: true, isRegistry: true });
  const buyerId = ops.createOrganization(r, { fullName: 'Buyer', type: 'buyer', countryCode: 'DE', verified: true }).id;
  const verificationBodyId = ops.createOrganization(r, {
    fullName: 'VVB',
    type: 'validationVerificationBody',
    countryCode: 'GB',
    verified: true,
  }).id;
  return { buyerId, verificationBodyId };
}

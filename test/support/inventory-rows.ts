// The row the desk lists for an inventory credit of the registry, written out independently of the
// cache's own mapping so tests can compare the two.
import type { InventoryCreditRow } from '@shared/desk/api';
import type { InventoryCredit } from '@shared/registry/resources';

export const inventoryRowOf = (c: InventoryCredit): InventoryCreditRow => ({
  id: c.id,
  projectId: c.project.id,
  projectName: c.project.fullName,
  projectNum: c.project.num,
  serialization: c.serialization,
  vintage: c.vintage,
  type: c.type,
  amount: c.amount,
  supply: c.supply,
  unit: c.unit,
  tokenId: c.tokenId,
  tokenAddress: c.tokenAddress,
});

// The PostgreSQL bench's world, built the same on both engines: a buyer, a verification body, an
// app, and selling organizations with credits in their warehouses and the app installed.
import { generateKeyPairSync } from 'node:crypto';
import { issueAccessToken } from '@registry/auth/tokens';
import type { RegistryContext } from '@registry/context';
import * as ops from '@registry/operations';
import { stockWarehouse } from '@test/support/stocked-warehouse';
import { createMarketParties } from './market-parties';

export const SELLERS = 8;

export interface Seller {
  id: string;
  token: string;
  credits: string[];
}
export interface World {
  sellers: Seller[];
  buyer: string;
  appId: string;
}

/** 8 selling organizations, each with 4 credits of 10,000 t in its warehouse and its app installation. */
export function buildWorld(r: RegistryContext): World {
  const { buyerId: buyer, verificationBodyId: validator } = createMarketParties(r);
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const appId = ops.createApp(r, {
    name: 'Bench marketplace',
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }).id;
  const permissions = { organization_warehouse: 'WRITE' };
  const sellers: Seller[] = [];
  for (let s = 0; s < SELLERS; s++) {
    const id = ops.createOrganization(r, { fullName: `Seller ${s}`, countryCode: 'KE', verified: true }).id;
    const credits: string[] = [];
    for (let p = 0; p < 2; p++) {
      const stock = { organizationId: id, verificationBodyId: validator, projectName: `Bench Forest ${s}.${p}` };
      credits.push(...stockWarehouse(r, { ...stock, vintages: ['2022', '2023'], issue: 10_000, deposit: 10_000 }));
    }
    const installation = ops.installApp(r, { appId, organizationId: id, permissions });
    const { token } = issueAccessToken(r, { appId, installationId: installation.id, permissions });
    sellers.push({ id, token, credits });
  }
  return { sellers, buyer, appId };
}

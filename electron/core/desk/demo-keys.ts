// The demo's own keys, offered where the desk asks for a key, for the embedded demo registry only.
// Its wallets' keys are in demo-credentials.json beside it (written by the seed, mode 0600, demo
// only by design): a new user finalizing a demo retirement would otherwise have to find that file
// and copy a hex string out of it. The key goes to the page's wallet worker, as a typed one would.
import { z } from 'zod';
import type { ConnectionRuntime } from './connection-runtime';
import { readDemoCredentials } from './embedded';
import { DeskFailure } from './errors';

/** The demo wallets as the seed writes them (only what is read here). */
const demoWallets = z.array(
  z.object({
    address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    privateKey: z.string().regex(/^0x[0-9a-f]{64}$/),
    retirements: z.array(z.object({ id: z.string() })),
  }),
);

export function demoWalletKey(
  runtime: ConnectionRuntime,
  embeddedRegistryDir: string,
  retirementId: string,
): { address: string; privateKey: string } {
  if (runtime.connection.kind !== 'embedded')
    throw new DeskFailure(
      'invalid_input',
      'Demo keys exist only for the embedded demo registry: open the wallet that retired these credits',
    );
  const wallets = demoWallets.parse(readDemoCredentials(embeddedRegistryDir).wallets);
  const wallet = wallets.find((w) => w.retirements.some((r) => r.id === retirementId));
  if (!wallet) throw new DeskFailure('not_found', 'No demo wallet made this retirement: open the wallet that retired these credits');
  return { address: wallet.address, privateKey: wallet.privateKey };
}

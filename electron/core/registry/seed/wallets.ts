// On-chain wallets of the demo: ethers wallets whose private keys come from the seed's random
// stream, so the same seed always gives the same addresses. They retire credits on chain and
// start unclaimed; their keys go to demo-credentials.json so a tester can finalize them.
import { Wallet } from 'ethers';
import type { Random } from './random';

export interface DemoWallet {
  address: string;
  privateKey: string;
  /** Unclaimed on-chain retirements this wallet made, as recordOnchainRetirement reported them. */
  retirements: { id: string; projectAddress: string; tokenId: string }[];
}

export function makeDemoWallets(random: Random, count: number): DemoWallet[] {
  const wallets: DemoWallet[] = [];
  while (wallets.length < count) {
    const privateKey = `0x${random.hex(64)}`;
    let wallet: Wallet;
    try {
      wallet = new Wallet(privateKey);
    } catch {
      continue; // zero or not below the curve order: astronomically rare, draw again
    }
    wallets.push({ address: wallet.address, privateKey: wallet.privateKey, retirements: [] });
  }
  return wallets;
}

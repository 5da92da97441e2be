// The demo's wallets, where the finalize dialog asks for a wallet. The demo registry writes its
// wallets' keys into demo-credentials.json (a JSON file, not a keystore); the desk offers the one
// that made this retirement (embedded demo only), and the keystore input takes that file itself.

/** The key of the demo wallet in a demo-credentials.json text that made `retirementId`; null when it is no such file. */
export function demoWalletFromCredentials(text: string, retirementId: string): { privateKey: string } | { problem: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const wallets = (parsed as { wallets?: unknown } | null)?.wallets;
  if (!Array.isArray(wallets)) return null;
  for (const wallet of wallets as Array<{ privateKey?: unknown; retirements?: Array<{ id?: unknown }> }>) {
    if (typeof wallet?.privateKey !== 'string' || !Array.isArray(wallet.retirements)) continue;
    if (wallet.retirements.some((r) => r?.id === retirementId)) return { privateKey: wallet.privateKey };
  }
  return { problem: 'None of the wallets in these demo credentials made this retirement: open the wallet that retired these credits.' };
}

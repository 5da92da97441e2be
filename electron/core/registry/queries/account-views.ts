// Accounts as the back office names them: kind, organization (with its name) or wallet.
import type { RegistryContext } from '../context';

export interface AccountView {
  id: string | null;
  kind: 'inventory' | 'warehouse' | 'buffer' | 'adjustment' | 'registry' | 'wallet';
  organizationId: string | null;
  organizationName: string | null;
  walletAddress: string | null;
}

/** The named views of these account ids (ids that do not exist are left out). */
export function accountViews(ctx: RegistryContext, ids: Iterable<string>): Map<string, AccountView> {
  const unique = [...new Set(ids)];
  const views = new Map<string, AccountView>();
  const statement = ctx.db.prepare(
    `SELECT a.id, a.kind, a.organization_id, o.full_name, a.wallet_address FROM accounts a
     LEFT JOIN organizations o ON o.id = a.organization_id WHERE a.id = ?`,
  );
  for (const id of unique) {
    const row = statement.get(id) as
      | { id: string; kind: AccountView['kind']; organization_id: string | null; full_name: string | null; wallet_address: string | null }
      | undefined;
    if (row) {
      views.set(id, {
        id: row.id,
        kind: row.kind,
        organizationId: row.organization_id,
        organizationName: row.full_name,
        walletAddress: row.wallet_address,
      });
    }
  }
  return views;
}

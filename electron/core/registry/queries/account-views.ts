// Accounts as the back office names them: kind, organization (with its name) or wallet.
import type { Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { AccountKind, RegistryTables } from '../schema';

export interface AccountView {
  id: string | null;
  kind: AccountKind;
  organizationId: string | null;
  organizationName: string | null;
  walletAddress: string | null;
}

const accountWithOrganization = (v: { id: string }, q: Kysely<RegistryTables>) =>
  q
    .selectFrom('accounts as a')
    .leftJoin('organizations as o', 'o.id', 'a.organization_id')
    .select(['a.id', 'a.kind', 'a.organization_id', 'o.full_name', 'a.wallet_address'])
    .where('a.id', '=', v.id);

/** The named views of these account ids (ids that do not exist are left out). */
export function accountViews(ctx: RegistryContext, ids: Iterable<string>): Map<string, AccountView> {
  const unique = [...new Set(ids)];
  const views = new Map<string, AccountView>();
  const statement = ctx.db.prepared(accountWithOrganization);
  for (const id of unique) {
    const row = statement.first({ id });
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

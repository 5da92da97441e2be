// Refusals of issuance and transfers in words people read: an organization by its name, a credit by
// its serialization, an account by whose it is. The ids stay at the end in brackets
// ("(organization 5f3c…)"), for whoever needs to find the record; the desk shows the sentence
// without them and keeps the whole message under "Details".
import type { RegistryContext } from '@registry/context';
import type { AccountRef } from '@registry/ledger';

/** The organization's name, or its id when it has none stored. */
export function organizationName(ctx: RegistryContext, id: string): string {
  const { db } = ctx;
  return db.first(db.q.selectFrom('organizations').select('full_name').where('id', '=', id))?.full_name ?? id;
}

/** "the inventory of Acme Ltd", "wallet 0x…", "the registry's buffer account". */
export function accountWords(ctx: RegistryContext, ref: AccountRef): string {
  switch (ref.kind) {
    case 'inventory':
    case 'warehouse':
      return `the ${ref.kind} of ${organizationName(ctx, ref.organizationId)}`;
    case 'wallet':
      return `wallet ${ref.address}`;
    default:
      return `the registry's ${ref.kind} account`;
  }
}

/** The ids a refusal's sentence names, in brackets at its end: "(organization …)". */
export function idsOf(ref: AccountRef | { organizationId: string }): string {
  return 'organizationId' in ref ? ` (organization ${ref.organizationId})` : '';
}

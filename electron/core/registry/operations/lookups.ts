// Records an operation needs to exist before it changes anything: a 404 naming the missing one.
// Every operation runs these, so they are compiled once per connection (SqliteDatabase.prepared).
import type { Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import type { RegistryTables } from '../schema';

const organization = (v: { id: string }, q: Kysely<RegistryTables>) =>
  q.selectFrom('organizations').select(['id', 'is_verified']).where('id', '=', v.id);

const creditWithContract = (v: { id: string }, q: Kysely<RegistryTables>) =>
  q
    .selectFrom('credits as c')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .selectAll('c')
    .select('p.contract_address')
    .where('c.id', '=', v.id);

export function requireOrganization(ctx: RegistryContext, id: string) {
  const row = ctx.db.prepared(organization).first({ id });
  if (!row) throw notFound(`Organization ${id} not found`);
  return row;
}

export function requireCredit(ctx: RegistryContext, id: string) {
  const row = ctx.db.prepared(creditWithContract).first({ id });
  if (!row) throw notFound(`Credit ${id} not found`);
  return row;
}

// Whether the finish queue holds anything, asked without holding the process. A claim is a
// transaction (on PostgreSQL three round trips, during which a process serves nothing else), and the
// worker polls four times a second: on an idle queue those claims cost every request waiting behind
// them. So the worker looks first (SyncDatabase.allAsync) and claims only when there is work.
import type { Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';

const oneQueued = (_v: Record<string, never>, q: Kysely<RegistryTables>) =>
  q.selectFrom('transactions').select('id').where('state', '=', 'pending_queue').limit(1);

/** Whether a transaction is queued (claimed by another worker or not: the claim then says). */
export async function anythingQueued(ctx: RegistryContext): Promise<boolean> {
  return (await ctx.db.prepared(oneQueued).allAsync({})).length > 0;
}

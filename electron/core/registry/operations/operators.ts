// Operator accounts: the registry's account managers, each with a role and the RSA public key that
// checks the JWTs they sign to get an operator token. Disabling an account stops its tokens at once
// (every request checks the account). The first administrator comes from the CLI; the rest over HTTP.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import type { InferResult, Kysely } from 'kysely';
import type { z } from 'zod';
import { createOperatorInput, setOperatorActiveInput, setOperatorKeyInput } from '@shared/registry/operator-inputs';
import type { OperatorRole } from '@shared/registry/vocabulary';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseInput } from '../input';
import { rsaPublicKeyPem } from './public-keys';
import type { RegistryTables } from '../schema';

export { createOperatorInput, setOperatorActiveInput, setOperatorKeyInput };

export interface OperatorRecord {
  id: string;
  name: string;
  role: OperatorRole;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Operators with what their record shows (never the key). */
const selectOperators = (q: Kysely<RegistryTables>) =>
  q.selectFrom('operators').select(['id', 'name', 'role', 'active', 'created_at', 'updated_at']);

const present = (r: InferResult<ReturnType<typeof selectOperators>>[number]): OperatorRecord => ({
  id: r.id,
  name: r.name,
  role: r.role,
  active: r.active === 1,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export function createOperator(ctx: RegistryContext, input: z.input<typeof createOperatorInput>): { operator: OperatorRecord } {
  const o = parseInput(createOperatorInput, input);
  const pem = rsaPublicKeyPem(o.publicKeyPem, 'operators');
  const id = o.id ?? ctx.newId();
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    const { db } = ctx;
    if (db.first(db.q.selectFrom('operators').select('id').where('id', '=', id))) throw conflict(`Operator ${id} already exists`);
    db.run(
      db.q
        .insertInto('operators')
        .values({ id, name: o.name, role: o.role, public_key_pem: pem, active: 1, created_at: now, updated_at: now }),
    );
    return { operator: requireOperator(ctx, id) };
  });
}

export function setOperatorActive(ctx: RegistryContext, input: z.input<typeof setOperatorActiveInput>): { operator: OperatorRecord } {
  const o = parseInput(setOperatorActiveInput, input);
  return ctx.db.transaction(() => {
    const current = requireOperator(ctx, o.operatorId);
    if (!o.active && current.active && current.role === 'administrator') refuseLastAdministrator(ctx, current.id);
    const { db } = ctx;
    db.run(
      db.q
        .updateTable('operators')
        .set({ active: o.active ? 1 : 0, updated_at: ctx.clock.now() })
        .where('id', '=', o.operatorId),
    );
    if (!o.active) db.run(db.q.deleteFrom('operator_tokens').where('operator_id', '=', o.operatorId));
    return { operator: requireOperator(ctx, o.operatorId) };
  });
}

/**
 * Gives an account a new public key: the account (its id, name, role, history) stays, the old key
 * signs nothing any more, and the tokens minted with it stop working at once. A disabled account is
 * refused (409): enable it first.
 */
export function setOperatorKey(ctx: RegistryContext, input: z.input<typeof setOperatorKeyInput>): { operator: OperatorRecord } {
  const o = parseInput(setOperatorKeyInput, input);
  const pem = rsaPublicKeyPem(o.publicKeyPem, 'operators');
  return ctx.db.transaction(() => {
    if (!requireOperator(ctx, o.operatorId).active)
      throw conflict(`Operator ${o.operatorId} is disabled: enable it before giving it a new key`);
    const { db } = ctx;
    db.run(db.q.updateTable('operators').set({ public_key_pem: pem, updated_at: ctx.clock.now() }).where('id', '=', o.operatorId));
    db.run(db.q.deleteFrom('operator_tokens').where('operator_id', '=', o.operatorId));
    return { operator: requireOperator(ctx, o.operatorId) };
  });
}

/** The public key an account's tokens are checked against, and whether it is active; undefined: no such account. */
export function operatorKeyOf(ctx: RegistryContext, id: string): { active: boolean; publicKeyPem: string } | undefined {
  const row = ctx.db.first(ctx.db.q.selectFrom('operators').select(['active', 'public_key_pem']).where('id', '=', id));
  return row && { active: row.active === 1, publicKeyPem: row.public_key_pem };
}

/**
 * Disabling the last active administrator would leave nobody able to manage operators except the CLI
 * on the server itself: refused (409) until another administrator is active.
 */
function refuseLastAdministrator(ctx: RegistryContext, operatorId: string): void {
  const { db } = ctx;
  const others = db.first(
    db.q
      .selectFrom('operators')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'administrator')
      .where('active', '=', 1)
      .where('id', '<>', operatorId),
  );
  if (Number(others?.n ?? 0) === 0) {
    throw conflict(
      `Operator ${operatorId} is the last active administrator: disabling it would leave nobody to manage operators. Create or enable another administrator first.`,
    );
  }
}

export function requireOperator(ctx: RegistryContext, id: string): OperatorRecord {
  const row = ctx.db.first(selectOperators(ctx.db.q).where('id', '=', id));
  if (!row) throw notFound(`Operator ${id} not found`);
  return present(row);
}

export function listOperators(ctx: RegistryContext): OperatorRecord[] {
  return ctx.db.all(selectOperators(ctx.db.q).orderBy('created_at').orderBy('id')).map(present);
}

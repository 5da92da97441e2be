// Operator accounts: the registry's account managers, each with a role and the RSA public key that
// checks the JWTs they sign to get an operator token. Disabling an account stops its tokens at once
// (every request checks the account). The first administrator comes from the CLI; the rest over HTTP.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { createPublicKey } from 'node:crypto';
import type { z } from 'zod';
import { createOperatorInput, setOperatorActiveInput } from '@shared/registry/operator-inputs';
import type { OperatorRole } from '@shared/registry/vocabulary';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { parseInput } from '../input';

export { createOperatorInput, setOperatorActiveInput };

export interface OperatorRecord {
  id: string;
  name: string;
  role: OperatorRole;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

interface OperatorRow {
  id: string;
  name: string;
  role: OperatorRole;
  active: number;
  created_at: number;
  updated_at: number;
}

const present = (r: OperatorRow): OperatorRecord => ({
  id: r.id,
  name: r.name,
  role: r.role,
  active: r.active === 1,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** An RSA public key of at least 2048 bits, as SPKI PEM (operators sign with RS256, like apps). */
export function rsaPublicKeyPem(pem: string, field = 'publicKeyPem'): string {
  let key;
  try {
    key = createPublicKey(pem);
  } catch {
    throw badRequest(`${field}: not a PEM public key`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw badRequest(`${field}: operators sign with RS256, so the key must be RSA`);
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw badRequest(`${field}: RSA keys must be at least 2048 bits`);
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export function createOperator(ctx: RegistryContext, input: z.input<typeof createOperatorInput>): { operator: OperatorRecord } {
  const o = parseInput(createOperatorInput, input);
  const pem = rsaPublicKeyPem(o.publicKeyPem);
  const id = o.id ?? ctx.newId();
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    if (ctx.db.prepare('SELECT 1 FROM operators WHERE id = ?').get(id)) throw conflict(`Operator ${id} already exists`);
    ctx.db
      .prepare('INSERT INTO operators (id, name, role, public_key_pem, active, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)')
      .run(id, o.name, o.role, pem, now, now);
    return { operator: requireOperator(ctx, id) };
  });
}

export function setOperatorActive(ctx: RegistryContext, input: z.input<typeof setOperatorActiveInput>): { operator: OperatorRecord } {
  const o = parseInput(setOperatorActiveInput, input);
  return ctx.db.transaction(() => {
    const current = requireOperator(ctx, o.operatorId);
    if (!o.active && current.active && current.role === 'administrator') refuseLastAdministrator(ctx, current.id);
    ctx.db.prepare('UPDATE operators SET active = ?, updated_at = ? WHERE id = ?').run(o.active ? 1 : 0, ctx.clock.now(), o.operatorId);
    if (!o.active) ctx.db.prepare('DELETE FROM operator_tokens WHERE operator_id = ?').run(o.operatorId);
    return { operator: requireOperator(ctx, o.operatorId) };
  });
}

/**
 * Disabling the last active administrator would leave nobody able to manage operators except the CLI
 * on the server itself: refused (409) until another administrator is active.
 */
function refuseLastAdministrator(ctx: RegistryContext, operatorId: string): void {
  const others = ctx.db
    .prepare("SELECT COUNT(*) AS n FROM operators WHERE role = 'administrator' AND active = 1 AND id <> ?")
    .get(operatorId) as { n: number };
  if (Number(others.n) === 0) {
    throw conflict(
      `Operator ${operatorId} is the last active administrator: disabling it would leave nobody to manage operators. Create or enable another administrator first.`,
    );
  }
}

export function requireOperator(ctx: RegistryContext, id: string): OperatorRecord {
  const row = ctx.db.prepare('SELECT id, name, role, active, created_at, updated_at FROM operators WHERE id = ?').get(id) as
    OperatorRow | undefined;
  if (!row) throw notFound(`Operator ${id} not found`);
  return present(row);
}

export function listOperators(ctx: RegistryContext): OperatorRecord[] {
  return (
    ctx.db.prepare('SELECT id, name, role, active, created_at, updated_at FROM operators ORDER BY created_at, id').all() as OperatorRow[]
  ).map(present);
}

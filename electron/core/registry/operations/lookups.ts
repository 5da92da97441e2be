// Records an operation needs to exist before it changes anything: a 404 naming the missing one.
import type { RegistryContext } from '../context';
import { notFound } from '../errors';

export function requireOrganization(ctx: RegistryContext, id: string): { id: string; is_verified: number } {
  const row = ctx.db.prepare('SELECT id, is_verified FROM organizations WHERE id = ?').get(id) as
    { id: string; is_verified: number } | undefined;
  if (!row) throw notFound(`Organization ${id} not found`);
  return row;
}

export function requireCredit(ctx: RegistryContext, id: string) {
  const row = ctx.db
    .prepare('SELECT c.*, p.contract_address FROM credits c JOIN projects p ON p.id = c.project_id WHERE c.id = ?')
    .get(id) as
    | { id: string; project_id: string; token_id: number; token_address: string; type: string; vintage: string; serialization: string }
    | undefined;
  if (!row) throw notFound(`Credit ${id} not found`);
  return row;
}

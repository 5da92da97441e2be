// Health endpoints for a load balancer or an orchestrator, outside the contract's endpoint table:
// unauthenticated, not rate limited (no route here goes through the authenticator), one cheap query
// at most. GET /healthz: the process serves HTTP. GET /readyz: it can serve the registry too (its
// database answers and holds the schema this build expects); 503 in the error shape otherwise.
import type { Hono } from 'hono';
import { sql } from 'kysely';
import { STATUS_CODES } from 'node:http';
import type { RegistryContext } from '../context';
import { registryMigrations } from '../migrations';
import { registryPostgresMigrations } from '../migrations/postgres';

/** The schema version the database holds now (one statement). */
function currentSchemaVersion(registry: RegistryContext): number {
  if (registry.db.engine === 'postgres') {
    return registry.db.first(sql<{ version: number }>`SELECT version FROM schema_version`)?.version ?? 0;
  }
  return registry.db.first(sql<{ user_version: number }>`PRAGMA user_version`)?.user_version ?? 0;
}

/** Why the registry cannot serve now, or null when it can. */
export function notReadyReason(registry: RegistryContext): string | null {
  const expected = registry.db.engine === 'postgres' ? registryPostgresMigrations.length : registryMigrations.length;
  let version: number;
  try {
    version = currentSchemaVersion(registry);
  } catch {
    return 'The registry cannot reach its database';
  }
  if (version !== expected) return `The database holds schema version ${version}; this registry needs ${expected}`;
  return null;
}

export function mountHealth(app: Hono, registry: RegistryContext, isStopping: () => boolean = () => false): void {
  app.get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'alive' });
  });
  app.get('/readyz', (c) => {
    c.header('Cache-Control', 'no-store');
    const reason = isStopping() ? 'The registry is shutting down' : notReadyReason(registry);
    if (reason === null) return c.json({ status: 'ready' });
    c.header('Retry-After', '1');
    return c.json({ statusCode: 503, message: reason, error: STATUS_CODES[503] }, 503);
  });
}

/** The two endpoints as OpenAPI path items (they are not in the contract's endpoint table). */
export function healthPaths(errorSchema: unknown): Record<string, Record<string, unknown>> {
  const status = (value: string) => ({
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: [value] } },
  });
  const operation = (operationId: string, summary: string, value: string, notReady: boolean) => ({
    get: {
      operationId,
      summary,
      tags: ['health'],
      parameters: [],
      security: [],
      responses: {
        200: { description: value, content: { 'application/json': { schema: status(value) } } },
        ...(notReady
          ? { 503: { description: 'Not ready (see message); Retry-After', content: { 'application/json': { schema: errorSchema } } } }
          : {}),
      },
    },
  });
  return {
    '/healthz': operation('healthz', 'The process is alive (no database access)', 'alive', false),
    '/readyz': operation('readyz', 'The database answers and holds the current schema; 503 otherwise', 'ready', true),
  };
}

// The demo seed writes a whole registry (at --scale 100, ~300,000 ledger movements and 100,000
// retirements) in one transaction on an empty database. The changes feed's triggers (migration 6)
// would record each of those writes one by one, re-stamping the same few keys thousands of times,
// and more than double the seed's time. Nothing can read the registry before the seed commits, so
// on SQLite the seed suspends those triggers inside its transaction and afterwards records every
// resource once, as a snapshot under one new sequence number: what the triggers would have left,
// each key at its newest change. test/unit/registry/seed-feed.test.ts checks the two end alike.
// (PostgreSQL keeps its triggers during the seed: disabling them there needs table ownership or a
// superuser, and only small seeds run there.)
import { sql } from 'kysely';
import { SqliteDatabase } from '@platform/db/database';
import type { RegistryContext } from '../context';

/**
 * Every resource key the feed can answer, as migration 6 (and the triggers since) define them
 * (a compound SELECT over a VALUES list: a sql template).
 */
const SNAPSHOT_KEYS = sql`
  SELECT 'organization' AS kind, id AS key FROM organizations
  UNION ALL SELECT 'warehouse', id FROM organizations
  UNION ALL SELECT 'project', id FROM projects
  UNION ALL SELECT 'retirement', id FROM retirements
  UNION ALL SELECT 'inventory', column1 FROM (VALUES ('buffer'), ('adjustment'), ('registry'))`;

/**
 * Runs `fn` (inside the caller's transaction) with the feed's triggers dropped, then puts them back
 * exactly as they were and stamps every resource key with one new sequence number. Throws if
 * called outside a transaction: the triggers must never be missing where a write could see it.
 */
export function withFeedTriggersSuspended<T>(ctx: RegistryContext, fn: () => T): T {
  if (!(ctx.db instanceof SqliteDatabase)) return fn();
  const db = ctx.db;
  const raw = db.raw;
  if (!raw.inTransaction) throw new Error('the feed triggers are suspended only inside a transaction');
  const triggers = db.all(
    sql<{
      name: string;
      sql: string;
    }>`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'feed\\_%' ESCAPE '\\' ORDER BY rowid`,
  );
  for (const trigger of triggers) db.run(sql`DROP TRIGGER ${sql.id(trigger.name)}`);
  const result = fn();
  // the triggers' DDL as the schema stored it, run as it is
  for (const trigger of triggers) raw.exec(trigger.sql);
  db.run(db.q.updateTable('feed_sequence').set((eb) => ({ seq: eb('seq', '+', 1) })));
  // (WHERE true: SQLite's upsert after a SELECT needs a WHERE to parse its ON CONFLICT)
  db.run(
    sql`INSERT INTO feed_changes (kind, key, seq)
      SELECT kind, key, (SELECT seq FROM feed_sequence) FROM (${SNAPSHOT_KEYS}) WHERE true
      ON CONFLICT (kind, key) DO UPDATE SET seq = excluded.seq`,
  );
  return result;
}

// Issue 29's cost bench: the same registry code on a schema with the transparency log (every
// migration) or without it (every migration, then the log's tables dropped: appending finds no log
// and does nothing), on SQLite (a data folder) or PostgreSQL (a database of its own), stocked like
// the warehouse bench. Both sides have every other table and trigger (the account totals of
// migration 0016 included), so the difference is the log's alone.
import { generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { systemClock } from '@platform/clock';
import type { SqliteDatabase } from '@platform/db/database';
import { openSqlite } from '@platform/db/open';
import { PostgresDatabase } from '@platform/db/postgres';
import { migratePostgres } from '@platform/db/postgres-migrate';
import { issueAccessToken } from '@registry/auth/tokens';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { registryPostgresMigrations } from '@registry/migrations/postgres';
import { REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import { createMarketParties } from './market-parties';
import type { RegistryTables } from '@registry/schema';
import { stockWarehouse } from '@test/support/stocked-warehouse';

/** The transparency log's tables (migrations 0014 and 0019; SQLite has no head since 0018). */
const LOG_TABLES = ['tlog_leaves', 'tlog_refs', 'tlog_head', 'tlog_checkpoints', 'tlog_key'] as const;

/** `target`: a data folder, or a postgres:// URL; `withLog`: as migrated, else without the log's tables. */
export function openRegistryAt(target: string, withLog: boolean): RegistryContext & { close(): void } {
  let db: RegistryContext['db'];
  if (/^postgres(ql)?:\/\//.test(target)) {
    const pg = new PostgresDatabase<RegistryTables>(target);
    migratePostgres(pg, registryPostgresMigrations);
    db = pg;
  } else {
    db = openSqlite<RegistryTables>(join(target, REGISTRY_DB_FILE), { migrations: registryMigrations }).db;
  }
  if (!withLog) for (const table of LOG_TABLES) db.run(db.q.schema.dropTable(table).ifExists());
  return {
    db,
    clock: systemClock,
    newId: defaultNewId,
    urls: { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://registry.example.org' },
    close: () => db.close(),
  };
}

/** A fresh database on the PostgreSQL server at `url`, dropped by `drop`. */
export function createPostgresDatabase(url: string, name: string): { url: string; drop(): void } {
  const run = (statement: string) => {
    const admin = new PostgresDatabase<unknown>(url);
    try {
      admin.exec(statement);
    } finally {
      admin.close();
    }
  };
  run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  run(`CREATE DATABASE ${name}`);
  return { url: `${url}${url.includes('?') ? '&' : '?'}dbname=${name}`, drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface TlogWorld {
  orgA: string;
  orgB: string;
  creditId: string;
  /** The seller's inventory and warehouse accounts. */
  accounts: [string, string];
  token: string;
}

/** A seller with 4 credits (one of 1,000,000 t, partly in its warehouse), a buyer, and an app installation's token. */
export function stockWorld(r: RegistryContext): TlogWorld {
  const { buyerId: orgB, verificationBodyId } = createMarketParties(r);
  const orgA = ops.createOrganization(r, { fullName: 'Seller', countryCode: 'KE', verified: true }).id;
  const stock = { organizationId: orgA, verificationBodyId, projectName: 'Bench Forest' };
  const [creditId] = stockWarehouse(r, { ...stock, vintages: ['2021', '2022', '2023', '2024'], issue: 1_000_000, deposit: 100_000 });
  const accounts = r.db.all(r.db.q.selectFrom('accounts').select('id').where('organization_id', '=', orgA).orderBy('kind'));
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = ops.createApp(r, { name: 'Bench marketplace', publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const permissions = { organization_warehouse: 'WRITE' };
  const installation = ops.installApp(r, { appId: app.id, organizationId: orgA, permissions });
  const { token } = issueAccessToken(r, { appId: app.id, installationId: installation.id, permissions });
  return { orgA, orgB, creditId: creditId!, accounts: [accounts[0]!.id, accounts[1]!.id], token };
}

/** How many writes the write-ahead log is measured over. */
const WAL_SAMPLE = 200;

/**
 * The write-ahead log one write takes, over WAL_SAMPLE more writes and then `after` (the with-log
 * side signs a checkpoint there, whose indexing of the records' leaves is charged to the writes): on
 * SQLite in frames (one page each; automatic checkpoints paused meanwhile, so that every frame stays
 * in the file to be counted), on PostgreSQL in bytes (pg_current_wal_lsn before and after).
 */
export function walPerWrite(r: RegistryContext, write: (i: number) => void, after: () => void = () => undefined): number {
  const { db } = r;
  if (db.engine === 'postgres') {
    const lsn = () => String(db.first(sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`)!.lsn);
    const before = lsn();
    for (let i = 0; i < WAL_SAMPLE; i++) write(i);
    after();
    const bytes = db.first(sql<{ n: string }>`SELECT pg_wal_lsn_diff(${lsn()}::pg_lsn, ${before}::pg_lsn)::text AS n`)!.n;
    return Number(bytes) / WAL_SAMPLE;
  }
  const raw = (db as SqliteDatabase<unknown>).raw;
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.pragma('wal_autocheckpoint = 0');
  try {
    for (let i = 0; i < WAL_SAMPLE; i++) write(i);
    after();
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    // a WAL file: a 32-byte header, then per frame a 24-byte header and one page
    return (statSync(`${raw.name}-wal`).size - 32) / (24 + pageSize) / WAL_SAMPLE;
  } finally {
    raw.pragma('wal_autocheckpoint = 1000');
  }
}

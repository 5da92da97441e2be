// The desk cache's kysely tables (electron/core/desk/cache/schema.ts) against the migrated cache:
// the literal below is what `PRAGMA table_info` reports for each table (FTS5 tables included, their
// shadow tables aside) after every migration; the compiler holds it to CacheTables (a column
// missing, extra or typed against its SQL fails the typecheck) and this test holds it to the cache.
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../../electron/core/platform/db/open';
import { cacheMigrations } from '../../../electron/core/desk/cache/migrations';
import type { CacheTables } from '../../../electron/core/desk/cache/schema';
import { migratedColumns, withRowidsAsListed, type TableColumns } from '../../support/table-columns';

const CACHE_COLUMNS = {
  bo_answers: { key: 'TEXT', endpoint: 'TEXT', call_json: 'TEXT', json: 'TEXT', fetched_at: 'INTEGER' },
  bo_audit: {
    id: 'TEXT',
    ord: 'INTEGER',
    at_ms: 'INTEGER',
    operator_id: 'TEXT NULL',
    action: 'TEXT',
    outcome: 'TEXT',
    json: 'TEXT',
  },
  bo_audit_targets: { target_id: 'TEXT', ord: 'INTEGER' },
  bo_credits: { id: 'TEXT', serialization: 'TEXT', balances_hash: 'TEXT', json: 'TEXT', fetched_at: 'INTEGER' },
  bo_ledger: {
    id: 'INTEGER',
    credit_id: 'TEXT',
    at: 'TEXT',
    kind: 'TEXT',
    from_account_id: 'TEXT NULL',
    to_account_id: 'TEXT NULL',
    amount_grams: 'INTEGER',
    reference: 'TEXT NULL',
  },
  inventories: {
    account: 'TEXT',
    json: 'TEXT',
    fetched_at: 'INTEGER',
    answer_hash: 'TEXT NULL',
    credit_count: 'INTEGER',
  },
  inventory_adjustment_fts: {
    project: 'UNTYPED NULL',
    num: 'UNTYPED NULL',
    facets: 'UNTYPED NULL',
    rowid: 'ROWID',
  },
  inventory_buffer_fts: {
    project: 'UNTYPED NULL',
    num: 'UNTYPED NULL',
    facets: 'UNTYPED NULL',
    rowid: 'ROWID',
  },
  inventory_credits: {
    account: 'TEXT',
    id: 'TEXT',
    project_id: 'TEXT',
    project_name: 'TEXT',
    project_num: 'TEXT',
    serialization: 'TEXT',
    vintage: 'TEXT',
    type: 'TEXT',
    amount: 'REAL',
    supply: 'REAL',
    unit: 'TEXT',
    token_id: 'TEXT',
    token_address: 'TEXT',
    row_hash: 'TEXT',
    json: 'TEXT',
    rowid: 'ROWID',
  },
  inventory_organization_fts: {
    project: 'UNTYPED NULL',
    num: 'UNTYPED NULL',
    facets: 'UNTYPED NULL',
    rowid: 'ROWID',
  },
  inventory_staging: {
    account: 'TEXT',
    id: 'TEXT',
    row_hash: 'TEXT',
    json: 'TEXT NULL',
    rowid: 'ROWID',
  },
  organizations: {
    id: 'TEXT',
    full_name: 'TEXT',
    installed: 'INTEGER',
    json: 'TEXT',
    fetched_at: 'INTEGER',
    needs_refresh: 'INTEGER',
  },
  organizations_unseen: {
    id: 'TEXT',
    checked_at: 'INTEGER',
  },
  page_hashes: {
    resource: 'TEXT',
    page: 'INTEGER',
    hash: 'TEXT',
    ids: 'TEXT',
  },
  project_credits: {
    project_id: 'TEXT',
    json: 'TEXT',
    list_hash: 'TEXT',
    fetched_at: 'INTEGER',
  },
  project_details: {
    id: 'TEXT',
    json: 'TEXT',
    list_hash: 'TEXT',
    fetched_at: 'INTEGER',
  },
  project_vintages: {
    project_id: 'TEXT',
    vintage: 'TEXT',
  },
  projects: {
    scope: 'TEXT',
    id: 'TEXT',
    num: 'TEXT',
    num_sort: 'INTEGER',
    full_name: 'TEXT',
    short_description: 'TEXT',
    status: 'TEXT',
    country_code: 'TEXT NULL',
    country_name: 'TEXT NULL',
    sector_id: 'TEXT',
    sector_title: 'TEXT',
    methodology_id: 'TEXT',
    methodology_title: 'TEXT',
    type_id: 'TEXT',
    type_title: 'TEXT',
    proponents: 'TEXT',
    start_date: 'TEXT',
    row_hash: 'TEXT',
    json: 'TEXT',
    rowid: 'ROWID',
  },
  projects_internal_fts: {
    name: 'UNTYPED NULL',
    num: 'UNTYPED NULL',
    description: 'UNTYPED NULL',
    country: 'UNTYPED NULL',
    methodology: 'UNTYPED NULL',
    proponents: 'UNTYPED NULL',
    rowid: 'ROWID',
  },
  projects_public_fts: {
    name: 'UNTYPED NULL',
    num: 'UNTYPED NULL',
    description: 'UNTYPED NULL',
    country: 'UNTYPED NULL',
    methodology: 'UNTYPED NULL',
    proponents: 'UNTYPED NULL',
    rowid: 'ROWID',
  },
  retirements: {
    id: 'TEXT',
    created_at: 'TEXT',
    is_claimed: 'INTEGER',
    amount: 'REAL',
    beneficiary: 'TEXT NULL',
    reason: 'TEXT NULL',
    organization_name: 'TEXT NULL',
    project_id: 'TEXT',
    project_name: 'TEXT',
    project_num: 'TEXT',
    serialization: 'TEXT NULL',
    vintage: 'TEXT NULL',
    row_hash: 'TEXT',
    json: 'TEXT',
    rowid: 'ROWID',
  },
  retirements_fts: {
    beneficiary: 'UNTYPED NULL',
    serialization: 'UNTYPED NULL',
    project: 'UNTYPED NULL',
    rowid: 'ROWID',
  },
  staging: {
    resource: 'TEXT',
    id: 'TEXT',
    row_hash: 'TEXT',
    json: 'TEXT NULL',
  },
  sync_state: {
    resource: 'TEXT',
    last_success_at: 'INTEGER NULL',
    last_attempt_at: 'INTEGER NULL',
    last_error: 'TEXT NULL',
    last_full_at: 'INTEGER NULL',
    watermark: 'TEXT NULL',
    total: 'INTEGER NULL',
  },
  warehouses: {
    organization_id: 'TEXT',
    organization_name: 'TEXT',
    can_write: 'INTEGER',
    credits_json: 'TEXT',
    reservations_json: 'TEXT',
    fetched_at: 'INTEGER',
  },
} satisfies TableColumns<CacheTables>;

describe('cache tables', () => {
  it('are the migrated cache, table by table and column by column', () => {
    const { db } = openSqlite<CacheTables>(':memory:', { migrations: cacheMigrations });
    try {
      expect(withRowidsAsListed(migratedColumns(db.raw), CACHE_COLUMNS)).toEqual(CACHE_COLUMNS);
    } finally {
      db.close();
    }
  });
});

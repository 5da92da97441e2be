// The registry's kysely tables (electron/core/registry/schema.ts) against the migrated database:
// the literal below is what `PRAGMA table_info` reports for each table after every migration; the
// compiler holds it to RegistryTables (a column missing, extra or typed against its SQL fails the
// typecheck) and this test holds it to the database. A migration that adds a column makes both fail
// until the interface and the literal say the same.
import { describe, expect, it } from 'vitest';
import { openSqlite } from '@platform/db/open';
import { registryMigrations } from '@registry/migrations';
import type { RegistryTables } from '@registry/schema';
import { migratedColumns, withRowidsAsListed, type TableColumns } from '@test/support/table-columns';

/** The registry's own tables: the ledger, projects, organizations, apps and the warehouse. */
const CORE_COLUMNS = {
  access_tokens: {
    id: 'TEXT',
    token_hash: 'TEXT',
    app_id: 'TEXT',
    installation_id: 'TEXT NULL',
    created_at: 'INTEGER',
    expires_at: 'INTEGER',
    revoked_at: 'INTEGER NULL',
  },
  accounts: {
    id: 'TEXT',
    kind: 'TEXT',
    organization_id: 'TEXT NULL',
    wallet_address: 'TEXT NULL',
    created_at: 'INTEGER',
  },
  apps: {
    id: 'TEXT',
    name: 'TEXT',
    name_id: 'TEXT',
    public_key_pem: 'TEXT',
    examiner_read: 'INTEGER',
    created_at: 'INTEGER',
    updated_at: 'INTEGER',
  },
  account_totals: {
    account_id: 'TEXT',
    total: 'INTEGER',
  },
  balances: {
    account_id: 'TEXT',
    credit_id: 'TEXT',
    amount: 'INTEGER',
  },
  credit_event_files: {
    id: 'TEXT',
    event_id: 'TEXT',
    file_name: 'TEXT',
    size: 'INTEGER',
    url: 'TEXT',
    type: 'TEXT',
    position: 'INTEGER',
  },
  credit_events: {
    id: 'TEXT',
    credit_id: 'TEXT',
    type: 'TEXT',
    credit_type: 'TEXT',
    amount: 'INTEGER',
    created_at: 'INTEGER',
    monitoring_period_start: 'INTEGER',
    monitoring_period_end: 'INTEGER',
    verification_body_id: 'TEXT',
    movement_id: 'INTEGER NULL',
  },
  credits: {
    id: 'TEXT',
    project_id: 'TEXT',
    token_address: 'TEXT',
    token_id: 'INTEGER',
    type: 'TEXT',
    vintage: 'TEXT',
    serialization: 'TEXT',
    created_at: 'INTEGER',
  },
  installations: {
    id: 'TEXT',
    app_id: 'TEXT',
    organization_id: 'TEXT',
    permissions: 'TEXT',
    status: 'TEXT',
    created_at: 'INTEGER',
    updated_at: 'INTEGER',
  },
  methodologies: {
    id: 'TEXT',
    title: 'TEXT',
  },
  movements: {
    id: 'INTEGER',
    credit_id: 'TEXT',
    kind: 'TEXT',
    from_account: 'TEXT NULL',
    to_account: 'TEXT NULL',
    amount: 'INTEGER',
    created_at: 'INTEGER',
    reference: 'TEXT NULL',
  },
  organizations: {
    id: 'TEXT',
    full_name: 'TEXT',
    type: 'TEXT',
    country_code: 'TEXT',
    city: 'TEXT',
    zip: 'TEXT',
    physical_address: 'TEXT',
    registration_number: 'TEXT',
    website: 'TEXT',
    logo: 'TEXT',
    industry_code: 'TEXT',
    industry_name: 'TEXT',
    is_public: 'INTEGER',
    is_verified: 'INTEGER',
    is_registry: 'INTEGER',
    created_at: 'INTEGER',
    updated_at: 'INTEGER',
  },
  project_benefits: {
    project_id: 'TEXT',
    benefit_id: 'INTEGER',
    title: 'TEXT',
    checked: 'INTEGER',
    description: 'TEXT',
    position: 'INTEGER',
  },
  project_documents: {
    id: 'TEXT',
    project_id: 'TEXT',
    uri: 'TEXT',
    type: 'TEXT',
    name: 'TEXT',
    is_public: 'INTEGER',
    is_kml: 'INTEGER',
    position: 'INTEGER',
  },
  project_events: {
    id: 'TEXT',
    project_id: 'TEXT',
    type: 'TEXT',
    created_at: 'INTEGER',
    project_status: 'TEXT',
    previous_project_status: 'TEXT',
    comment: 'TEXT',
  },
  project_organizations: {
    project_id: 'TEXT',
    organization_id: 'TEXT',
    role: 'TEXT',
    position: 'INTEGER',
  },
  project_types: {
    id: 'TEXT',
    title: 'TEXT',
    description: 'TEXT',
  },
  projects: {
    id: 'TEXT',
    num: 'TEXT',
    full_name: 'TEXT',
    description: 'TEXT',
    short_description: 'TEXT',
    registry: 'TEXT',
    status: 'TEXT',
    start_date: 'INTEGER',
    crediting_period_start_date: 'INTEGER',
    estimated_annual_mitigations: 'TEXT',
    city: 'TEXT NULL',
    thumbnail: 'TEXT NULL',
    country_code: 'TEXT NULL',
    state: 'TEXT NULL',
    sector_id: 'TEXT',
    methodology_id: 'TEXT',
    type_id: 'TEXT',
    lat: 'REAL NULL',
    lng: 'REAL NULL',
    organization_id: 'TEXT',
    contract_address: 'TEXT',
    created_at: 'INTEGER',
    updated_at: 'INTEGER',
  },
  reservations: {
    id: 'TEXT',
    organization_id: 'TEXT',
    credit_id: 'TEXT',
    amount: 'INTEGER',
    app_id: 'TEXT',
    created_at: 'INTEGER',
    reserved_to: 'INTEGER',
    state: 'TEXT',
    is_complete: 'INTEGER',
    retirement_id: 'TEXT NULL',
    transaction_id: 'TEXT NULL',
    updated_at: 'INTEGER',
  },
  retirements: {
    id: 'TEXT',
    credit_id: 'TEXT',
    amount: 'INTEGER',
    created_at: 'INTEGER',
    source: 'TEXT',
    organization_id: 'TEXT NULL',
    owner_wallet: 'TEXT NULL',
    project_address: 'TEXT NULL',
    token_id: 'TEXT NULL',
    beneficiary: 'TEXT NULL',
    reason: 'TEXT NULL',
    comment: 'TEXT NULL',
    finalized_at: 'INTEGER NULL',
    movement_id: 'INTEGER',
  },
  sectors: {
    id: 'TEXT',
    title: 'TEXT',
  },
  settings: {
    key: 'TEXT',
    value: 'TEXT',
  },
  transactions: {
    id: 'TEXT',
    reservation_id: 'TEXT',
    action: 'TEXT',
    state: 'TEXT',
    receiver_id: 'TEXT',
    receiver_address: 'TEXT NULL',
    transfer_comment: 'TEXT NULL',
    price: 'TEXT NULL',
    currency: 'TEXT NULL',
    retirement_reason: 'TEXT NULL',
    beneficiary_name: 'TEXT NULL',
    retirement_comment: 'TEXT NULL',
    failure_reason: 'TEXT NULL',
    created_at: 'INTEGER',
    updated_at: 'INTEGER',
    processed_at: 'INTEGER NULL',
  },
} satisfies Partial<TableColumns<RegistryTables>>;

/** The operators' tables, the changes feed's, the request limits' and the transparency log's. */
const OPERATOR_FEED_AND_LOG_COLUMNS = {
  operators: {
    id: 'TEXT',
    name: 'TEXT',
    role: 'TEXT',
    public_key_pem: 'TEXT',
    active: 'INTEGER',
    created_at: 'INTEGER',
    updated_at: 'INTEGER',
  },
  operator_tokens: {
    id: 'TEXT',
    token_hash: 'TEXT',
    operator_id: 'TEXT',
    created_at: 'INTEGER',
    expires_at: 'INTEGER',
  },
  audit_log: {
    seq: 'INTEGER',
    id: 'TEXT',
    at: 'INTEGER',
    operator_id: 'TEXT NULL',
    actor: 'TEXT',
    action: 'TEXT',
    target_ids: 'TEXT',
    outcome: 'TEXT',
    detail: 'TEXT',
  },
  audit_targets: {
    seq: 'INTEGER',
    target_id: 'TEXT',
  },
  cancellation_reasons: {
    movement_id: 'INTEGER',
    reason: 'TEXT',
  },
  movement_audit: {
    movement_id: 'INTEGER',
    audit_seq: 'INTEGER',
  },
  idempotency_keys: {
    operator_id: 'TEXT',
    key: 'TEXT',
    request_hash: 'TEXT',
    status: 'INTEGER',
    answer: 'TEXT',
    created_at: 'INTEGER',
  },
  feed_sequence: {
    id: 'INTEGER',
    seq: 'INTEGER',
  },
  feed_changes: {
    kind: 'TEXT',
    key: 'TEXT',
    seq: 'INTEGER',
  },
  used_signatures: {
    digest: 'TEXT',
    retirement_id: 'TEXT',
    used_at: 'INTEGER',
  },
  rate_limit_buckets: {
    key: 'TEXT',
    tokens: 'REAL',
    updated_at: 'INTEGER',
  },
  tlog_head: { one: 'INTEGER', size: 'INTEGER' },
  tlog_leaves: { idx: 'INTEGER', kind: 'TEXT', ref: 'TEXT', hash: 'TEXT' },
  tlog_refs: { idx: 'INTEGER', kind: 'TEXT', ref: 'TEXT' },
  tlog_checkpoints: { size: 'INTEGER', root: 'TEXT', at: 'INTEGER', note: 'TEXT' },
  tlog_key: { one: 'INTEGER', name: 'TEXT', public_key: 'TEXT', private_key: 'TEXT', created_at: 'INTEGER' },
} satisfies Partial<TableColumns<RegistryTables>>;

// The compiler holds the two halves together to every table of RegistryTables.
const REGISTRY_COLUMNS = { ...CORE_COLUMNS, ...OPERATOR_FEED_AND_LOG_COLUMNS } satisfies TableColumns<RegistryTables>;

describe('registry tables', () => {
  it('are the migrated database, table by table and column by column', () => {
    const { db } = openSqlite<RegistryTables>(':memory:', { migrations: registryMigrations });
    try {
      // the log's head row is PostgreSQL's alone since migration 0018; SQLite has every other table
      const { tlog_head: _postgresOnly, ...sqliteColumns } = REGISTRY_COLUMNS;
      expect(withRowidsAsListed(migratedColumns(db.raw), sqliteColumns)).toEqual(sqliteColumns);
    } finally {
      db.close();
    }
  });
});

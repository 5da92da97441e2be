// The other half of what schema-tables.test.ts holds the migrated database to (the first is
// registry-core-columns.ts).
import type { RegistryTables } from '@registry/schema';
import type { TableColumns } from '@test/support/table-columns';

/** The operators' tables, the changes feed's, the request limits' and the transparency log's. */
export const OPERATOR_FEED_AND_LOG_COLUMNS = {
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

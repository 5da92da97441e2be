// The registry database's tables for kysely, written once from the migrations; a unit test
// (test/unit/registry/schema-tables.test.ts) compares them with the migrated database, so they cannot
// drift. Times are epoch milliseconds, amounts grams, booleans 0/1 (see migrations/0001-initial.ts).
import type { Generated } from 'kysely';
import type { ProjectStatus } from '@shared/registry/vocabulary';

type Bool = 0 | 1;

export interface RegistryTables {
  settings: { key: string; value: string };
  organizations: {
    id: string;
    full_name: string;
    type: string;
    country_code: string;
    city: string;
    zip: string;
    physical_address: string;
    registration_number: string;
    website: string;
    logo: string;
    industry_code: string;
    industry_name: string;
    is_public: Bool;
    is_verified: Bool;
    is_registry: Bool;
    created_at: number;
    updated_at: number;
  };
  sectors: { id: string; title: string };
  methodologies: { id: string; title: string };
  project_types: { id: string; title: string; description: string };
  projects: {
    id: string;
    num: string;
    full_name: string;
    description: string;
    short_description: string;
    registry: string;
    status: ProjectStatus;
    start_date: number;
    crediting_period_start_date: number;
    estimated_annual_mitigations: string;
    city: string | null;
    thumbnail: string | null;
    country_code: string | null;
    state: string | null;
    sector_id: string;
    methodology_id: string;
    type_id: string;
    lat: number | null;
    lng: number | null;
    organization_id: string;
    contract_address: string;
    created_at: number;
    updated_at: number;
  };
  project_organizations: { project_id: string; organization_id: string; role: 'proponent' | 'validator'; position: number };
  project_documents: {
    id: string;
    project_id: string;
    uri: string;
    type: string;
    name: string;
    is_public: Bool;
    is_kml: Bool;
    position: number;
  };
  project_benefits: {
    project_id: string;
    benefit_id: number;
    title: string;
    checked: Bool;
    description: string;
    position: number;
  };
  project_events: {
    id: string;
    project_id: string;
    type: string;
    created_at: number;
    project_status: string;
    previous_project_status: string;
    /** The operator's comment on the change (migration 0008); empty before it. */
    comment: Generated<string>;
  };
  credits: {
    id: string;
    project_id: string;
    token_address: string;
    token_id: number;
    type: 'exPost' | 'exAnte';
    vintage: string;
    serialization: string;
    created_at: number;
  };
  credit_events: {
    id: string;
    credit_id: string;
    type: string;
    credit_type: string;
    amount: number;
    created_at: number;
    monitoring_period_start: number;
    monitoring_period_end: number;
    verification_body_id: string;
    movement_id: number | null;
  };
  credit_event_files: {
    id: string;
    event_id: string;
    file_name: string;
    size: number;
    url: string;
    type: string;
    position: number;
  };
  accounts: {
    id: string;
    kind: AccountKind;
    organization_id: string | null;
    wallet_address: string | null;
    created_at: number;
  };
  movements: {
    id: Generated<number>;
    credit_id: string;
    kind: MovementKind;
    from_account: string | null;
    to_account: string | null;
    amount: number;
    created_at: number;
    reference: string | null;
  };
  balances: { account_id: string; credit_id: string; amount: number };
  account_totals: { account_id: string; total: number };
  retirements: {
    id: string;
    credit_id: string;
    amount: number;
    created_at: number;
    source: 'warehouse' | 'inventory' | 'onchain';
    organization_id: string | null;
    owner_wallet: string | null;
    project_address: string | null;
    token_id: string | null;
    beneficiary: string | null;
    reason: string | null;
    comment: string | null;
    finalized_at: number | null;
    movement_id: number;
  };
  apps: {
    id: string;
    name: string;
    name_id: string;
    public_key_pem: string;
    examiner_read: Bool;
    created_at: number;
    updated_at: number;
  };
  installations: {
    id: string;
    app_id: string;
    organization_id: string;
    permissions: string;
    status: 'active' | 'suspended';
    created_at: number;
    updated_at: number;
  };
  operators: {
    id: string;
    name: string;
    role: 'viewer' | 'manager' | 'administrator';
    public_key_pem: string;
    active: Bool;
    created_at: number;
    updated_at: number;
  };
  operator_tokens: { id: string; token_hash: string; operator_id: string; created_at: number; expires_at: number };
  audit_log: {
    seq: Generated<number>;
    id: string;
    at: number;
    operator_id: string | null;
    actor: string;
    action: string;
    target_ids: string;
    outcome: 'succeeded' | 'refused' | 'failed';
    detail: string;
  };
  audit_targets: { seq: number; target_id: string };
  cancellation_reasons: { movement_id: number; reason: string };
  movement_audit: { movement_id: number; audit_seq: number };
  idempotency_keys: { operator_id: string; key: string; request_hash: string; status: number; answer: string; created_at: number };
  // The changes feed (migration 0006): the sequence counter and each resource key's newest change.
  feed_sequence: { id: number; seq: number };
  feed_changes: { kind: 'project' | 'retirement' | 'organization' | 'inventory' | 'warehouse'; key: string; seq: number };
  access_tokens: {
    id: string;
    token_hash: string;
    app_id: string;
    installation_id: string | null;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
  };
  reservations: {
    id: string;
    organization_id: string;
    credit_id: string;
    amount: number;
    app_id: string;
    created_at: number;
    reserved_to: number;
    state: string;
    is_complete: Bool;
    retirement_id: string | null;
    transaction_id: string | null;
    updated_at: number;
  };
  transactions: {
    id: string;
    reservation_id: string;
    action: 'transfer' | 'transfer_retire';
    state: 'pending_queue' | 'processed' | 'failed';
    receiver_id: string;
    receiver_address: string | null;
    transfer_comment: string | null;
    price: string | null;
    currency: string | null;
    retirement_reason: string | null;
    beneficiary_name: string | null;
    retirement_comment: string | null;
    failure_reason: string | null;
    created_at: number;
    updated_at: number;
    processed_at: number | null;
  };
  /** Each finalize signature used, by the sha256 of its canonical form (migration 4): one use each. */
  used_signatures: { digest: string; retirement_id: string; used_at: number };
  /** Rate-limit token buckets by key (migration 9): used on PostgreSQL only (SQLite's are in memory). */
  rate_limit_buckets: { key: string; tokens: number; updated_at: number };
  // The transparency log (migration 14, transparency/): its size, leaves, signed checkpoints, key.
  /** PostgreSQL only: SQLite's log size is its largest leaf index + 1 (migration 0018). */
  tlog_head: { one: number; size: number };
  /** `hash` in hex; PostgreSQL keeps its bytes from migration 0020 on, read as hex (transparency/tree.ts). */
  tlog_leaves: { idx: number; kind: 'movement' | 'audit'; ref: string; hash: string };
  /** SQLite only: a record's leaf index, filled at each checkpoint (migration 0019). */
  tlog_refs: { idx: number; kind: 'movement' | 'audit'; ref: string };
  tlog_checkpoints: { size: number; root: string; at: number; note: string };
  tlog_key: { one: number; name: string; public_key: string; private_key: string; created_at: number };
}

export type AccountKind = 'inventory' | 'warehouse' | 'buffer' | 'adjustment' | 'registry' | 'wallet';
export type MovementKind = 'issue' | 'transfer' | 'deposit' | 'withdraw' | 'retire' | 'cancel';

// The desk cache's tables for kysely, written once from the migrations (./migrations); a unit test
// (test/unit/desk/cache-schema-tables.test.ts) compares them with the migrated cache, so they cannot
// drift. Times are epoch milliseconds except the registry's own dates (ISO 8601 text), booleans 0/1.
// `rowid` is listed for the tables whose rowid the code uses: a searchable row and its FTS5 entry
// share it, and the staging tables keep arrival order by it.
import type { Generated } from 'kysely';
import type { InventoryAccount } from '@shared/desk/api';
import type { CacheResource, FeedCursorKey, ProjectScope } from './types';

type Bool = 0 | 1;

/** An FTS5 table: untyped columns (NULL when nothing was written) keyed by the indexed row's rowid. */
type Fts<Columns extends string> = { rowid: number } & { [C in Columns]: string | null };

export interface CacheTables {
  projects: {
    rowid: Generated<number>;
    scope: ProjectScope;
    id: string;
    num: string;
    num_sort: number;
    full_name: string;
    short_description: string;
    status: string;
    country_code: string | null;
    country_name: string | null;
    sector_id: string;
    sector_title: string;
    methodology_id: string;
    methodology_title: string;
    type_id: string;
    type_title: string;
    /** The proponents' names, comma-separated. */
    proponents: string;
    start_date: string;
    row_hash: string;
    json: string;
  };
  project_details: { id: string; json: string; list_hash: string; fetched_at: number };
  project_credits: { project_id: string; json: string; list_hash: string; fetched_at: number };
  project_vintages: { project_id: string; vintage: string };
  inventories: {
    account: InventoryAccount;
    /** The account's summary and organization (its credits are rows of inventory_credits). */
    json: string;
    fetched_at: number;
    answer_hash: string | null;
    credit_count: Generated<number>;
  };
  inventory_credits: {
    rowid: Generated<number>;
    account: InventoryAccount;
    id: string;
    project_id: string;
    project_name: string;
    project_num: string;
    serialization: string;
    vintage: string;
    type: string;
    amount: number;
    supply: number;
    unit: string;
    token_id: string;
    token_address: string;
    row_hash: string;
    json: string;
  };
  inventory_staging: { rowid: Generated<number>; account: InventoryAccount; id: string; row_hash: string; json: string | null };
  retirements: {
    rowid: Generated<number>;
    id: string;
    created_at: string;
    is_claimed: Bool;
    amount: number;
    beneficiary: string | null;
    reason: string | null;
    organization_name: string | null;
    project_id: string;
    project_name: string;
    project_num: string;
    serialization: string | null;
    vintage: string | null;
    row_hash: string;
    json: string;
  };
  organizations: { id: string; full_name: string; installed: Bool; json: string; fetched_at: number; needs_refresh: Generated<Bool> };
  organizations_unseen: { id: string; checked_at: number };
  warehouses: {
    organization_id: string;
    organization_name: string;
    can_write: Bool;
    credits_json: string;
    reservations_json: string;
    fetched_at: number;
  };
  sync_state: {
    /** A resource's state, or a stored cursor of the changes feed (its watermark). */
    resource: CacheResource | FeedCursorKey;
    last_success_at: number | null;
    last_attempt_at: number | null;
    last_error: string | null;
    last_full_at: number | null;
    watermark: string | null;
    total: number | null;
  };
  page_hashes: { resource: CacheResource; page: number; hash: string; ids: string };
  staging: { resource: CacheResource; id: string; row_hash: string; json: string | null };
  bo_answers: { key: string; endpoint: string; call_json: string; json: string; fetched_at: number };
  bo_audit: { id: string; ord: number; at_ms: number; operator_id: string | null; action: string; outcome: string; json: string };
  bo_audit_targets: { target_id: string; ord: number };
  bo_credits: { id: string; serialization: string; balances_hash: string; json: string; fetched_at: number };
  bo_ledger: {
    id: number;
    credit_id: string;
    at: string;
    kind: string;
    from_account_id: string | null;
    to_account_id: string | null;
    amount_grams: number;
    reference: string | null;
  };
  hv_state: {
    one: 1;
    outcome: 'verified' | 'unverifiable' | 'failed';
    message: string | null;
    checked_at: number;
    verifier_key: string | null;
    size: number | null;
    root: string | null;
    /** The right frontier's hashes, base64, as a JSON array. */
    frontier: string | null;
    checkpoint: string | null;
    signed_at: number | null;
    verified_at: number | null;
    pending: Generated<number>;
  };
  hv_movements: {
    id: number;
    leaf: number;
    credit_id: string;
    kind: string;
    from_account: string | null;
    to_account: string | null;
    amount: number;
    created_at: number;
    reference: string | null;
  };
  hv_evidence: {
    id: Generated<number>;
    found_at: number;
    kind: string;
    message: string;
    kept_checkpoint: string | null;
    latest_checkpoint: string | null;
    proof: string | null;
  };
  projects_public_fts: Fts<ProjectFtsColumn>;
  projects_internal_fts: Fts<ProjectFtsColumn>;
  retirements_fts: Fts<'beneficiary' | 'serialization' | 'project'>;
  inventory_buffer_fts: Fts<InventoryFtsColumn>;
  inventory_adjustment_fts: Fts<InventoryFtsColumn>;
  inventory_organization_fts: Fts<InventoryFtsColumn>;
}

type ProjectFtsColumn = 'name' | 'num' | 'description' | 'country' | 'methodology' | 'proponents';
type InventoryFtsColumn = 'project' | 'num' | 'facets';

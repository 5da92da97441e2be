// The desk cache's tables for kysely, written once from the migrations (./migrations); a unit test
// (test/unit/desk/cache-schema-tables.test.ts) compares them with the migrated cache, so they cannot
// drift. Each synced resource's tables are in its folder (resources/<kind>/schema.ts). Times are
// epoch milliseconds except the registry's own dates (ISO 8601 text), booleans 0/1.
// `rowid` is listed for the tables whose rowid the code uses: a searchable row and its FTS5 entry
// share it, and the staging tables keep arrival order by it.
import type { Generated } from 'kysely';
import type { CacheResource, FeedCursorKey } from './types';
import type { ProjectTables } from '@desk/resources/projects/schema';
import type { ProjectAnswerTables } from '@desk/resources/project-answers/schema';
import type { InventoryTables } from '@desk/resources/inventories/schema';
import type { RetirementTables } from '@desk/resources/retirements/schema';
import type { OrganizationTables } from '@desk/resources/organizations/schema';
import type { WarehouseTables } from '@desk/resources/warehouses/schema';

/** Every table: each synced resource's own, and those of the sync, the back office and the history check. */
export interface CacheTables
  extends ProjectTables, ProjectAnswerTables, InventoryTables, RetirementTables, OrganizationTables, WarehouseTables {
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
  /** The log key a person reviewed (migration 0007; verification/pin.ts); NULL: the registry published no log then. */
  hv_pin: { one: 1; verifier_key: string | null; pinned_at: number; reason: 'added' | 'started_over' };
  hv_evidence: {
    id: Generated<number>;
    found_at: number;
    kind: string;
    message: string;
    kept_checkpoint: string | null;
    latest_checkpoint: string | null;
    proof: string | null;
  };
  /** Indexes a first sync's load left to build after its commit (migration 0009; cache/deferred-indexes.ts). */
  deferred_indexes: { name: string; table_name: string; sql: string };
}

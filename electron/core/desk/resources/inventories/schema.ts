// The registry inventories' tables of the desk cache (cache/schema.ts puts every resource's together; the
// migrations in cache/migrations/ made them, and test/unit/desk/cache-schema-tables.test.ts holds
// them to the migrated cache).
import type { Generated } from 'kysely';
import type { InventoryAccount } from '@shared/desk/api';
import type { Fts } from '@desk/cache/types';

type InventoryFtsColumn = 'project' | 'num' | 'facets';

export interface InventoryTables {
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
  inventory_buffer_fts: Fts<InventoryFtsColumn>;
  inventory_adjustment_fts: Fts<InventoryFtsColumn>;
  inventory_organization_fts: Fts<InventoryFtsColumn>;
}

// The warehouses' tables of the desk cache (cache/schema.ts puts every resource's together; the
// migrations in cache/migrations/ made them, and test/unit/desk/cache-schema-tables.test.ts holds
// them to the migrated cache).
import type { Bool } from '@desk/cache/types';

export interface WarehouseTables {
  warehouses: {
    organization_id: string;
    organization_name: string;
    can_write: Bool;
    credits_json: string;
    reservations_json: string;
    fetched_at: number;
  };
}

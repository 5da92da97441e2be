// The retirements' tables of the desk cache (cache/schema.ts puts every resource's together; the
// migrations in cache/migrations/ made them, and test/unit/desk/cache-schema-tables.test.ts holds
// them to the migrated cache).
import type { Generated } from 'kysely';
import type { Bool, Fts } from '@desk/cache/types';

export interface RetirementTables {
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
  retirements_fts: Fts<'beneficiary' | 'serialization' | 'project'>;
}

// The organizations' tables of the desk cache (cache/schema.ts puts every resource's together; the
// migrations in cache/migrations/ made them, and test/unit/desk/cache-schema-tables.test.ts holds
// them to the migrated cache).
import type { Generated } from 'kysely';
import type { Bool } from '@desk/cache/types';

export interface OrganizationTables {
  organizations: { id: string; full_name: string; installed: Bool; json: string; fetched_at: number; needs_refresh: Generated<Bool> };
  organizations_unseen: { id: string; checked_at: number };
}

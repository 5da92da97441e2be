// The project lists' tables of the desk cache (cache/schema.ts puts every resource's together; the
// migrations in cache/migrations/ made them, and test/unit/desk/cache-schema-tables.test.ts holds
// them to the migrated cache).
import type { Generated } from 'kysely';
import type { Fts, ProjectScope } from '@desk/cache/types';

type ProjectFtsColumn = 'name' | 'num' | 'description' | 'country' | 'methodology' | 'proponents';

export interface ProjectTables {
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
    /** The proponents' organization ids, a JSON array in the project's order (migration 0010). */
    proponent_ids: string;
    start_date: string;
    row_hash: string;
    json: string;
  };
  /** Each scope's search entries (migration 0003), keyed by the project row's rowid. */
  projects_public_fts: Fts<ProjectFtsColumn>;
  projects_internal_fts: Fts<ProjectFtsColumn>;
}

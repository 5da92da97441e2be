// The per-project answers' tables of the desk cache (cache/schema.ts puts every resource's together; the
// migrations in cache/migrations/ made them, and test/unit/desk/cache-schema-tables.test.ts holds
// them to the migrated cache).

export interface ProjectAnswerTables {
  project_details: { id: string; json: string; list_hash: string; fetched_at: number };
  project_credits: { project_id: string; json: string; list_hash: string; fetched_at: number };
  project_vintages: { project_id: string; vintage: string };
}

// migrations/0002-project-list-indexes.ts on PostgreSQL: the project lists' order (by number, then
// id) and the count of public projects per organization.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0002: PostgresMigration = {
  version: 2,
  name: 'project-list-indexes',
  sql: `
    CREATE INDEX projects_by_number ON projects ((CAST(num AS INTEGER)), id, status, organization_id);
    CREATE INDEX projects_by_organization_status ON projects (organization_id, status);
  `,
};

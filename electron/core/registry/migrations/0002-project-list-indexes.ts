// Indexes for the project lists of 4.1 (GET /projects, /projects/internal), which are ordered by
// project number and must stay fast at tens of thousands of projects:
// - projects_by_number: the list order itself, CAST(num AS INTEGER) then id, carrying status and
//   organization_id so a page is chosen from the index alone without sorting every project;
// - projects_by_organization_status: the count of public projects, a covering seek per verified
//   organization.
import type { Migration } from '@platform/db/migrate';

export const migration0002: Migration = {
  version: 2,
  name: 'project-list-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX projects_by_number ON projects (CAST(num AS INTEGER), id, status, organization_id);
      CREATE INDEX projects_by_organization_status ON projects (organization_id, status);
    `);
  },
};

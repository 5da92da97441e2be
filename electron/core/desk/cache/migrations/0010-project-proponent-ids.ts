// Each project row's proponents as organization ids (a JSON array, in the project's order), in an
// index with the row's scope: the organizations' step reads every proponent after each sync that
// changed a project (resources/projects/queries.ts, proponentIds), and reading them from each row's
// JSON took 0.1 s at --scale 100 (a cache of 15,952 project rows of 3 kB on average); the index alone
// answers it in 4-6 ms (bench/README.md, sync). The rows a cache holds already get theirs from their
// JSON here.
import type { Migration } from '@platform/db/migrate';

export const migration0010: Migration = {
  version: 10,
  name: 'project-proponent-ids',
  up(db) {
    db.exec(`
      ALTER TABLE projects ADD COLUMN proponent_ids TEXT NOT NULL DEFAULT '[]';
      UPDATE projects SET proponent_ids = (
        SELECT json_group_array(json_extract(o.value, '$.id')) FROM json_each(projects.json, '$.proponents') o
      );
      CREATE INDEX projects_by_proponents ON projects (scope, proponent_ids);
    `);
  },
};

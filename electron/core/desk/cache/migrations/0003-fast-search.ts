// Search that stays fast on a large cache (10,000 projects per scope, 100,000 retirements):
// - one FTS table per project scope, so a scope's matches are counted and ranked inside FTS5
//   without reading project rows (the old shared table needed a join to tell the scopes apart);
// - retirement indexes that carry the filter columns (claimed, vintage) beside each sort column,
//   so filtering, counting and skipping to a deep offset read only the index, never the wide rows
//   that hold the JSON; each sort ends with the id, so equal amounts (or names) and times still
//   have one order and offset paging neither repeats nor skips rows;
// - a country sort index for projects;
// - organizations remember when a changed project row pointed at them (needs_refresh) and which
//   proponents this app cannot see, so a re-sync fetches only stale ones.
import type { Migration } from '@platform/db/migrate';

const PROJECT_FTS_COLUMNS = 'name, num, description, country, methodology, proponents';

export const migration0003: Migration = {
  version: 3,
  name: 'fast-search',
  up(db) {
    for (const scope of ['public', 'internal']) {
      db.exec(`
        CREATE VIRTUAL TABLE projects_${scope}_fts USING fts5 (
          ${PROJECT_FTS_COLUMNS},
          tokenize = 'unicode61 remove_diacritics 2',
          prefix = '1 2 3'
        );
        INSERT INTO projects_${scope}_fts (rowid, ${PROJECT_FTS_COLUMNS})
          SELECT f.rowid, ${PROJECT_FTS_COLUMNS.split(', ')
            .map((c) => `f.${c}`)
            .join(', ')}
          FROM projects_fts f JOIN projects p ON p.rowid = f.rowid WHERE p.scope = '${scope}';
      `);
    }
    db.exec(`
      DROP TABLE projects_fts;
      CREATE INDEX projects_by_country_name ON projects (scope, country_name, num_sort);

      DROP INDEX retirements_by_time;
      DROP INDEX retirements_by_amount;
      DROP INDEX retirements_by_beneficiary;
      DROP INDEX retirements_by_project_name;
      DROP INDEX retirements_by_vintage;
      DROP INDEX retirements_by_claimed;
      CREATE INDEX retirements_by_time ON retirements (created_at, id, is_claimed, vintage);
      CREATE INDEX retirements_by_amount ON retirements (amount, created_at, id, is_claimed, vintage);
      -- Also what a one-character query (a beneficiary's initial) sorts by: such a page never reads a row.
      CREATE INDEX retirements_by_beneficiary ON retirements (beneficiary COLLATE NOCASE, created_at, id, is_claimed, vintage, amount, project_name COLLATE NOCASE);
      CREATE INDEX retirements_by_project_name ON retirements (project_name COLLATE NOCASE, created_at, id, is_claimed, vintage);
      CREATE INDEX retirements_by_vintage ON retirements (vintage, is_claimed, created_at);
      CREATE INDEX retirements_by_claimed ON retirements (is_claimed, created_at);

      ALTER TABLE organizations ADD COLUMN needs_refresh INTEGER NOT NULL DEFAULT 0;
      -- Proponents the app was told do not exist (non-public, or gone), and when: not asked again
      -- until that is as old as a per-project answer may get, or a changed project names them.
      CREATE TABLE organizations_unseen (
        id TEXT PRIMARY KEY,
        checked_at INTEGER NOT NULL
      );
    `);
  },
};

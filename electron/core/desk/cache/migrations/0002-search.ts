// Full-text search for search-as-you-type: FTS5 tables keyed by the rowid of the row they index,
// with prefix indexes so 1-3 character prefixes do not scan the whole term list.
import type { Migration } from '@platform/db/migrate';

export const migration0002: Migration = {
  version: 2,
  name: 'search',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE projects_fts USING fts5 (
        name, num, description, country, methodology, proponents,
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '1 2 3'
      );
      CREATE VIRTUAL TABLE retirements_fts USING fts5 (
        beneficiary, serialization, project,
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '1 2 3'
      );
    `);
  },
};

// The desk's local cache of registry data. Each resource keeps the answer as validated JSON (what
// detail views show) beside the few columns that lists filter and sort on. `row_hash` lets a sync
// skip rows that did not change; sync_state and page_hashes remember what the last run saw.
import type { Migration } from '@platform/db/migrate';

export const migration0001: Migration = {
  version: 1,
  name: 'resources',
  up(db) {
    db.exec(`
      -- One row per project and scope: the public list and the internal list may disagree
      -- (internal data is possibly non-reviewed), so each scope keeps what it was told.
      CREATE TABLE projects (
        scope TEXT NOT NULL CHECK (scope IN ('public', 'internal')),
        id TEXT NOT NULL,
        num TEXT NOT NULL,
        num_sort INTEGER NOT NULL,
        full_name TEXT NOT NULL,
        short_description TEXT NOT NULL,
        status TEXT NOT NULL,
        country_code TEXT,
        country_name TEXT,
        sector_id TEXT NOT NULL,
        sector_title TEXT NOT NULL,
        methodology_id TEXT NOT NULL,
        methodology_title TEXT NOT NULL,
        type_id TEXT NOT NULL,
        type_title TEXT NOT NULL,
        proponents TEXT NOT NULL,
        start_date TEXT NOT NULL,
        row_hash TEXT NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (scope, id)
      );
      CREATE INDEX projects_by_num ON projects (scope, num_sort, id);
      CREATE INDEX projects_by_name ON projects (scope, full_name COLLATE NOCASE, id);
      CREATE INDEX projects_by_status ON projects (scope, status, num_sort);
      CREATE INDEX projects_by_country ON projects (scope, country_code, num_sort);
      CREATE INDEX projects_by_sector ON projects (scope, sector_id, num_sort);
      CREATE INDEX projects_by_methodology ON projects (scope, methodology_id, num_sort);
      CREATE INDEX projects_by_type ON projects (scope, type_id, num_sort);
      CREATE INDEX projects_by_start ON projects (scope, start_date, id);

      -- The internal single-project answer (with events), fetched per project.
      CREATE TABLE project_details (
        id TEXT PRIMARY KEY,
        json TEXT NOT NULL,
        list_hash TEXT NOT NULL,  -- the internal list row's hash when fetched: unchanged row, no refetch
        fetched_at INTEGER NOT NULL
      );

      -- GET /carbonCredits/projects/{id}, per project.
      CREATE TABLE project_credits (
        project_id TEXT PRIMARY KEY,
        json TEXT NOT NULL,
        list_hash TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      );
      -- Vintages a project has credits of: the vintage filter and facet.
      CREATE TABLE project_vintages (
        project_id TEXT NOT NULL,
        vintage TEXT NOT NULL,
        PRIMARY KEY (project_id, vintage)
      ) WITHOUT ROWID;
      CREATE INDEX project_vintages_by_vintage ON project_vintages (vintage, project_id);

      CREATE TABLE inventories (
        account TEXT PRIMARY KEY CHECK (account IN ('buffer', 'adjustment', 'organization')),
        json TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      );

      CREATE TABLE retirements (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        is_claimed INTEGER NOT NULL,
        amount REAL NOT NULL,
        beneficiary TEXT,
        reason TEXT,
        organization_name TEXT,
        project_id TEXT NOT NULL,
        project_name TEXT NOT NULL,
        project_num TEXT NOT NULL,
        serialization TEXT,
        vintage TEXT,
        row_hash TEXT NOT NULL,
        json TEXT NOT NULL
      );
      CREATE INDEX retirements_by_time ON retirements (created_at, id);
      CREATE INDEX retirements_by_amount ON retirements (amount, created_at);
      CREATE INDEX retirements_by_beneficiary ON retirements (beneficiary COLLATE NOCASE, created_at);
      CREATE INDEX retirements_by_project_name ON retirements (project_name COLLATE NOCASE, created_at);
      CREATE INDEX retirements_by_project ON retirements (project_id, created_at);
      CREATE INDEX retirements_by_vintage ON retirements (vintage, created_at);
      CREATE INDEX retirements_by_claimed ON retirements (is_claimed, created_at);

      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        full_name TEXT NOT NULL,
        installed INTEGER NOT NULL,
        json TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      );

      -- One row per installed organization with warehouse access: its inventory and reservations.
      CREATE TABLE warehouses (
        organization_id TEXT PRIMARY KEY,
        organization_name TEXT NOT NULL,
        can_write INTEGER NOT NULL,
        credits_json TEXT NOT NULL,
        reservations_json TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      );

      CREATE TABLE sync_state (
        resource TEXT PRIMARY KEY,
        last_success_at INTEGER,
        last_attempt_at INTEGER,
        last_error TEXT,
        last_full_at INTEGER,
        -- e.g. the newest retirement (created_at|id) seen, for incremental runs
        watermark TEXT,
        total INTEGER
      );

      -- Hash of each list page's text as last synced, and the ids it held: an unchanged page is
      -- neither parsed nor written again.
      CREATE TABLE page_hashes (
        resource TEXT NOT NULL,
        page INTEGER NOT NULL,
        hash TEXT NOT NULL,
        ids TEXT NOT NULL,
        PRIMARY KEY (resource, page)
      ) WITHOUT ROWID;

      -- Rows of a list resource collected page by page during a run, swapped in at its end, so
      -- readers never see half a resource and an interrupted run leaves the previous data alone.
      CREATE TABLE staging (
        resource TEXT NOT NULL,
        id TEXT NOT NULL,
        row_hash TEXT NOT NULL,
        -- NULL when the row is unchanged from the cache: only its presence matters
        json TEXT,
        PRIMARY KEY (resource, id)
      ) WITHOUT ROWID;
    `);
  },
};

// The changes feed (GET /sync/v1/changes): a monotonic change sequence and, per resource a client
// can read, the sequence number of its last change. Triggers advance both inside the transaction
// of every write, so no write path (operations, the warehouse worker, the CLI, a future one) can
// forget them, and a reader that sees a row also sees its change.
//
// A resource key is what the feed answers as one unit:
//   project:<id>        the public project, the internal project with its events, its credit data
//   retirement:<id>     one retirement
//   organization:<id>   one organization record
//   inventory:<kind>    one registry account (buffer, adjustment, registry) with its credits
//   warehouse:<org id>  one organization's warehouse inventory and reservations
// feed_changes keeps one row per key (its newest sequence number), so it grows with the registry's
// resources, not with its history; a key whose resource is gone stays as a tombstone.
//
// Portable in spirit: one counter row and upserts in AFTER triggers; PostgreSQL would use a
// sequence and row triggers (with the commit-order caveat that SQLite's single writer avoids).
import type { Migration } from '@platform/db/migrate';

/** Records a change of every key the select yields (column `k`) under a new sequence number. */
function bump(kind: string, select: string): string {
  return `UPDATE feed_sequence SET seq = seq + 1;
    INSERT INTO feed_changes (kind, key, seq) SELECT '${kind}', k, (SELECT seq FROM feed_sequence) FROM (${select}) WHERE k IS NOT NULL
    ON CONFLICT (kind, key) DO UPDATE SET seq = excluded.seq;`;
}

const one = (expr: string) => `SELECT ${expr} AS k`;
/**
 * Registry accounts and warehouses holding a credit (its supply and project show in their answers);
 * with `projectExpr`, holding any credit of that project (`creditExpr` is then `c.id`).
 */
function holdersOf(creditExpr: string, projectExpr?: string) {
  const from = `FROM balances b JOIN accounts a ON a.id = b.account_id${projectExpr ? ' JOIN credits c ON c.id = b.credit_id' : ''}
    WHERE ${projectExpr ? `c.project_id = ${projectExpr}` : `b.credit_id = ${creditExpr}`}`;
  return {
    inventories: `SELECT DISTINCT a.kind AS k ${from} AND a.kind IN ('buffer', 'adjustment', 'registry')`,
    warehouses: `SELECT DISTINCT a.organization_id AS k ${from} AND a.kind = 'warehouse'`,
  };
}
const REGISTRY_ACCOUNTS = `SELECT column1 AS k FROM (VALUES ('buffer'), ('adjustment'), ('registry'))`;

function trigger(name: string, event: string, table: string, body: string[], when?: string): string {
  return `CREATE TRIGGER feed_${name} AFTER ${event} ON ${table}${when ? ` WHEN ${when}` : ''}
    BEGIN ${body.join('\n')} END;`;
}

/** Insert, update and delete triggers of a project's child table (row's project in `project_id`). */
function projectChild(table: string): string {
  return ['INSERT', 'UPDATE', 'DELETE']
    .map((event) => {
      const row = event === 'DELETE' ? 'OLD' : 'NEW';
      return trigger(`${table}_${event.toLowerCase()}`, event, table, [bump('project', one(`${row}.project_id`))]);
    })
    .join('\n');
}

const PROJECTS_OF_ORGANIZATION = (id: string) => `SELECT id AS k FROM projects WHERE organization_id = ${id}
  UNION SELECT project_id FROM project_organizations WHERE organization_id = ${id}
  UNION SELECT c.project_id FROM credit_events e JOIN credits c ON c.id = e.credit_id WHERE e.verification_body_id = ${id}`;

const TRIGGERS = [
  // projects and what their answers show
  trigger('projects_insert', 'INSERT', 'projects', [bump('project', one('NEW.id'))]),
  trigger('projects_update', 'UPDATE', 'projects', [bump('project', one('NEW.id'))]),
  trigger('projects_delete', 'DELETE', 'projects', [bump('project', one('OLD.id'))]),
  // a project's name and number are shown by every retirement, inventory and warehouse of its credits
  trigger(
    'projects_rename',
    'UPDATE',
    'projects',
    [
      bump('retirement', `SELECT r.id AS k FROM retirements r JOIN credits c ON c.id = r.credit_id WHERE c.project_id = NEW.id`),
      bump('inventory', holdersOf('c.id', 'NEW.id').inventories),
      bump('warehouse', holdersOf('c.id', 'NEW.id').warehouses),
    ],
    'OLD.full_name IS NOT NEW.full_name OR OLD.num IS NOT NEW.num',
  ),
  projectChild('project_organizations'),
  projectChild('project_documents'),
  projectChild('project_benefits'),
  projectChild('project_events'),
  trigger('sectors_update', 'UPDATE', 'sectors', [bump('project', `SELECT id AS k FROM projects WHERE sector_id = NEW.id`)]),
  trigger('methodologies_update', 'UPDATE', 'methodologies', [
    bump('project', `SELECT id AS k FROM projects WHERE methodology_id = NEW.id`),
  ]),
  trigger('project_types_update', 'UPDATE', 'project_types', [bump('project', `SELECT id AS k FROM projects WHERE type_id = NEW.id`)]),

  // organizations: their record, and everything that shows their name, logo or verification
  trigger('organizations_insert', 'INSERT', 'organizations', [bump('organization', one('NEW.id')), bump('warehouse', one('NEW.id'))]),
  trigger('organizations_update', 'UPDATE', 'organizations', [
    bump('organization', one('NEW.id')),
    bump('warehouse', one('NEW.id')),
    bump('project', PROJECTS_OF_ORGANIZATION('NEW.id')),
    bump('retirement', `SELECT id AS k FROM retirements WHERE organization_id = NEW.id`),
    bump('inventory', `${REGISTRY_ACCOUNTS} WHERE NEW.is_registry = 1 OR OLD.is_registry = 1`),
  ]),

  // credit data (shown per project)
  trigger('credits_insert', 'INSERT', 'credits', [bump('project', one('NEW.project_id'))]),
  ...['INSERT', 'UPDATE', 'DELETE'].map((event) =>
    trigger(`credit_events_${event.toLowerCase()}`, event, 'credit_events', [
      bump('project', `SELECT project_id AS k FROM credits WHERE id = ${event === 'DELETE' ? 'OLD' : 'NEW'}.credit_id`),
    ]),
  ),
  ...['INSERT', 'UPDATE', 'DELETE'].map((event) =>
    trigger(`credit_event_files_${event.toLowerCase()}`, event, 'credit_event_files', [
      bump(
        'project',
        `SELECT c.project_id AS k FROM credit_events e JOIN credits c ON c.id = e.credit_id WHERE e.id = ${event === 'DELETE' ? 'OLD' : 'NEW'}.event_id`,
      ),
    ]),
  ),

  // the ledger: a movement changes its project's totals, and an issuance the supply that every
  // holder's inventory shows; balances change the accounts' answers
  trigger('movements_insert', 'INSERT', 'movements', [bump('project', `SELECT project_id AS k FROM credits WHERE id = NEW.credit_id`)]),
  trigger(
    'movements_issue',
    'INSERT',
    'movements',
    [bump('inventory', holdersOf('NEW.credit_id').inventories), bump('warehouse', holdersOf('NEW.credit_id').warehouses)],
    `NEW.kind = 'issue'`,
  ),
  ...['INSERT', 'UPDATE'].map((event) =>
    trigger(`balances_${event.toLowerCase()}`, event, 'balances', [
      bump('inventory', `SELECT kind AS k FROM accounts WHERE id = NEW.account_id AND kind IN ('buffer', 'adjustment', 'registry')`),
      bump('warehouse', `SELECT organization_id AS k FROM accounts WHERE id = NEW.account_id AND kind = 'warehouse'`),
    ]),
  ),

  // retirements, and their claim
  trigger('retirements_insert', 'INSERT', 'retirements', [bump('retirement', one('NEW.id'))]),
  trigger('retirements_update', 'UPDATE', 'retirements', [bump('retirement', one('NEW.id'))]),
  trigger('retirements_delete', 'DELETE', 'retirements', [bump('retirement', one('OLD.id'))]),

  // warehouses: reservations (and the holds of their transactions), the reserving app's name, and
  // who may read them (an installation's permissions)
  ...['INSERT', 'UPDATE', 'DELETE'].map((event) =>
    trigger(`reservations_${event.toLowerCase()}`, event, 'reservations', [
      bump('warehouse', one(`${event === 'DELETE' ? 'OLD' : 'NEW'}.organization_id`)),
    ]),
  ),
  ...['INSERT', 'UPDATE'].map((event) =>
    trigger(`transactions_${event.toLowerCase()}`, event, 'transactions', [
      bump('warehouse', `SELECT organization_id AS k FROM reservations WHERE id = NEW.reservation_id`),
    ]),
  ),
  trigger(
    'apps_rename',
    'UPDATE',
    'apps',
    [bump('warehouse', `SELECT DISTINCT organization_id AS k FROM reservations WHERE app_id = NEW.id`)],
    'OLD.name IS NOT NEW.name',
  ),
  ...['INSERT', 'UPDATE'].map((event) =>
    trigger(`installations_${event.toLowerCase()}`, event, 'installations', [
      bump('warehouse', one('NEW.organization_id')),
      bump('organization', one('NEW.organization_id')),
    ]),
  ),
];

export const migration0006: Migration = {
  version: 6,
  name: 'changes-feed',
  up(db) {
    db.exec(`
      CREATE TABLE feed_sequence (
        id  INTEGER PRIMARY KEY CHECK (id = 1),
        seq INTEGER NOT NULL CHECK (seq >= 0)
      ) STRICT;
      INSERT INTO feed_sequence (id, seq) VALUES (1, 0);

      CREATE TABLE feed_changes (
        kind TEXT NOT NULL CHECK (kind IN ('project', 'retirement', 'organization', 'inventory', 'warehouse')),
        key  TEXT NOT NULL,
        seq  INTEGER NOT NULL,
        PRIMARY KEY (kind, key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX feed_changes_by_seq ON feed_changes (seq, kind, key);

      -- What exists now is the feed's starting point (sequence 0): a snapshot reads it all.
      INSERT INTO feed_changes (kind, key, seq) SELECT 'organization', id, 0 FROM organizations;
      INSERT INTO feed_changes (kind, key, seq) SELECT 'warehouse', id, 0 FROM organizations;
      INSERT INTO feed_changes (kind, key, seq) SELECT 'project', id, 0 FROM projects;
      INSERT INTO feed_changes (kind, key, seq) SELECT 'retirement', id, 0 FROM retirements;
      INSERT INTO feed_changes (kind, key, seq) VALUES ('inventory', 'buffer', 0), ('inventory', 'adjustment', 0), ('inventory', 'registry', 0);

      ${TRIGGERS.join('\n')}
    `);
  },
};

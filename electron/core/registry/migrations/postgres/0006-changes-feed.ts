// migrations/0006-changes-feed.ts on PostgreSQL: the changes feed's sequence and, per resource key,
// the sequence number of its last change, advanced by row triggers inside the transaction of every
// write, for the same events, conditions and keys as on SQLite (one PL/pgSQL function per trigger).
// The sequence is one counter row, as on SQLite: its row lock is held from a write's bump to its
// commit, so sequence numbers are taken in commit order across processes (a reader never sees a
// number before an older, still uncommitted one), at the price of serializing the writes that
// change what clients read.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

/** Records a change of every key the select yields (column `k`) under a new sequence number. */
export type Bump = (kind: string, select: string) => string;

/** This step's numbering: the counter row (migration 0010 numbers by transaction instead). */
const counterBump: Bump = (kind, select) => {
  return `UPDATE feed_sequence SET seq = seq + 1;
    INSERT INTO feed_changes (kind, key, seq) SELECT '${kind}', s.k, (SELECT seq FROM feed_sequence) FROM (${select}) AS s WHERE s.k IS NOT NULL
    ON CONFLICT (kind, key) DO UPDATE SET seq = excluded.seq;`;
};

const one = (expr: string) => `SELECT ${expr} AS k`;
function holdersOf(creditExpr: string, projectExpr?: string) {
  const from = `FROM balances b JOIN accounts a ON a.id = b.account_id${projectExpr ? ' JOIN credits c ON c.id = b.credit_id' : ''}
    WHERE ${projectExpr ? `c.project_id = ${projectExpr}` : `b.credit_id = ${creditExpr}`}`;
  return {
    inventories: `SELECT DISTINCT a.kind AS k ${from} AND a.kind IN ('buffer', 'adjustment', 'registry')`,
    warehouses: `SELECT DISTINCT a.organization_id AS k ${from} AND a.kind = 'warehouse'`,
  };
}
const REGISTRY_ACCOUNTS = `SELECT v.column1 AS k FROM (VALUES ('buffer'), ('adjustment'), ('registry')) AS v`;

/** One trigger and its function: the function's body (a list of bumps) depends on the numbering. */
export interface FeedTrigger {
  name: string;
  event: string;
  table: string;
  body: string[];
  when?: string;
}

/** The function of a trigger (`replace`: a later step giving an existing function a new body). */
export function feedFunction(t: FeedTrigger, replace = false): string {
  return `CREATE ${replace ? 'OR REPLACE ' : ''}FUNCTION feed_${t.name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      ${t.body.join('\n')}
      RETURN NULL;
    END $$;`;
}

function createTrigger(t: FeedTrigger): string {
  return `${feedFunction(t)}
    CREATE TRIGGER feed_${t.name} AFTER ${t.event} ON ${t.table} FOR EACH ROW${t.when ? ` WHEN (${t.when})` : ''} EXECUTE FUNCTION feed_${t.name}();`;
}

const trigger = (name: string, event: string, table: string, body: string[], when?: string): FeedTrigger => ({
  name,
  event,
  table,
  body,
  ...(when ? { when } : {}),
});

function projectChild(bump: Bump, table: string): FeedTrigger[] {
  return ['INSERT', 'UPDATE', 'DELETE'].map((event) => {
    const row = event === 'DELETE' ? 'OLD' : 'NEW';
    return trigger(`${table}_${event.toLowerCase()}`, event, table, [bump('project', one(`${row}.project_id`))]);
  });
}

const PROJECTS_OF_ORGANIZATION = (id: string) => `SELECT id AS k FROM projects WHERE organization_id = ${id}
  UNION SELECT project_id FROM project_organizations WHERE organization_id = ${id}
  UNION SELECT c.project_id FROM credit_events e JOIN credits c ON c.id = e.credit_id WHERE e.verification_body_id = ${id}`;

/** Every trigger of the feed, its bumps made by `bump`. */
export const feedTriggers = (bump: Bump): FeedTrigger[] => [
  trigger('projects_insert', 'INSERT', 'projects', [bump('project', one('NEW.id'))]),
  trigger('projects_update', 'UPDATE', 'projects', [bump('project', one('NEW.id'))]),
  trigger('projects_delete', 'DELETE', 'projects', [bump('project', one('OLD.id'))]),
  trigger(
    'projects_rename',
    'UPDATE',
    'projects',
    [
      bump('retirement', `SELECT r.id AS k FROM retirements r JOIN credits c ON c.id = r.credit_id WHERE c.project_id = NEW.id`),
      bump('inventory', holdersOf('c.id', 'NEW.id').inventories),
      bump('warehouse', holdersOf('c.id', 'NEW.id').warehouses),
    ],
    'OLD.full_name IS DISTINCT FROM NEW.full_name OR OLD.num IS DISTINCT FROM NEW.num',
  ),
  ...projectChild(bump, 'project_organizations'),
  ...projectChild(bump, 'project_documents'),
  ...projectChild(bump, 'project_benefits'),
  ...projectChild(bump, 'project_events'),
  trigger('sectors_update', 'UPDATE', 'sectors', [bump('project', `SELECT id AS k FROM projects WHERE sector_id = NEW.id`)]),
  trigger('methodologies_update', 'UPDATE', 'methodologies', [
    bump('project', `SELECT id AS k FROM projects WHERE methodology_id = NEW.id`),
  ]),
  trigger('project_types_update', 'UPDATE', 'project_types', [bump('project', `SELECT id AS k FROM projects WHERE type_id = NEW.id`)]),
  trigger('organizations_insert', 'INSERT', 'organizations', [bump('organization', one('NEW.id')), bump('warehouse', one('NEW.id'))]),
  trigger('organizations_update', 'UPDATE', 'organizations', [
    bump('organization', one('NEW.id')),
    bump('warehouse', one('NEW.id')),
    bump('project', PROJECTS_OF_ORGANIZATION('NEW.id')),
    bump('retirement', `SELECT id AS k FROM retirements WHERE organization_id = NEW.id`),
    bump('inventory', `${REGISTRY_ACCOUNTS} WHERE NEW.is_registry = 1 OR OLD.is_registry = 1`),
  ]),
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
  trigger('retirements_insert', 'INSERT', 'retirements', [bump('retirement', one('NEW.id'))]),
  trigger('retirements_update', 'UPDATE', 'retirements', [bump('retirement', one('NEW.id'))]),
  trigger('retirements_delete', 'DELETE', 'retirements', [bump('retirement', one('OLD.id'))]),
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
    'OLD.name IS DISTINCT FROM NEW.name',
  ),
  ...['INSERT', 'UPDATE'].map((event) =>
    trigger(`installations_${event.toLowerCase()}`, event, 'installations', [
      bump('warehouse', one('NEW.organization_id')),
      bump('organization', one('NEW.organization_id')),
    ]),
  ),
];

export const postgresMigration0006: PostgresMigration = {
  version: 6,
  name: 'changes-feed',
  sql: `
    CREATE TABLE feed_sequence (
      id  BIGINT PRIMARY KEY CHECK (id = 1),
      seq BIGINT NOT NULL CHECK (seq >= 0)
    );
    INSERT INTO feed_sequence (id, seq) VALUES (1, 0);

    CREATE TABLE feed_changes (
      kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('project', 'retirement', 'organization', 'inventory', 'warehouse')),
      key  TEXT COLLATE "C" NOT NULL,
      seq  BIGINT NOT NULL,
      PRIMARY KEY (kind, key)
    );
    CREATE INDEX feed_changes_by_seq ON feed_changes (seq, kind, key);

    INSERT INTO feed_changes (kind, key, seq) SELECT 'organization', id, 0 FROM organizations;
    INSERT INTO feed_changes (kind, key, seq) SELECT 'warehouse', id, 0 FROM organizations;
    INSERT INTO feed_changes (kind, key, seq) SELECT 'project', id, 0 FROM projects;
    INSERT INTO feed_changes (kind, key, seq) SELECT 'retirement', id, 0 FROM retirements;
    INSERT INTO feed_changes (kind, key, seq) VALUES ('inventory', 'buffer', 0), ('inventory', 'adjustment', 0), ('inventory', 'registry', 0);

    ${feedTriggers(counterBump).map(createTrigger).join('\n')}
  `,
};

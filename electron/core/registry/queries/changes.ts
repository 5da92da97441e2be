// The changes feed (GET /sync/v1/changes): the resources whose key changed since a cursor
// (migration 0006 keeps, per key, the sequence number of its newest change), each presented by the
// same code as its own endpoint and filtered by the same visibility rules, so a caller sees through
// the feed exactly what it may read through the seed endpoints. A key that changed but is not (or
// no longer) visible to the caller is answered as removed; a snapshot (no cursor) answers only what
// is visible.
import type { InternalProject, Organization, Project, ProjectEvent, Reservation, Retirement } from '@shared/registry/resources';
import { FEED_KEY_KINDS, type FeedItemType, type FeedKeyKind } from '@shared/registry/vocabulary';
import { sql, type Kysely } from 'kysely';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { RegistryError } from '../errors';
import type { RegistryTables } from '../schema';
import { presentOrganization, presentRetirement, projectReferenceOf, selectRetirements } from '../present';
import { warehouseInventory } from '../warehouse/inventory';
import { presentReservation, selectReservations } from '../warehouse/present';
import { groupBy, idList } from './id-list';
import { registryInventory, type RegistryAccountKind, type RegistryInventory } from './inventory';
import { projectCreditsOf, type ProjectCredits } from './project-credits';
import { projectPresenter, selectProjects } from './project-presenter';
import { PUBLIC_PROJECT_CONDITION } from './project-visibility';

type Q = Kysely<RegistryTables>;

/** Who reads the feed: what its token may see through the seed endpoints. */
export interface FeedViewer {
  /** The app holds examiner:read: internal projects, every project's credits, non-public organizations. */
  examinerRead: boolean;
  /** An installation token's organization (null for an app token). */
  organizationId: string | null;
  /** The installation may read its organization's warehouse (organization_warehouse VIEW or WRITE). */
  warehouseRead: boolean;
}

/** Where a reader is: after this (seq, kind, key) in feed order, and the time of its last answer. */
export interface FeedCursor {
  seq: number;
  kind: string;
  key: string;
  /** Registry time of the answer that gave this cursor: reservations that lapsed since then changed. */
  at: number;
  /**
   * A snapshot in progress: the sequence when it started. Keys not changed since then were never
   * seen by the reader, so a key it may not see is left out rather than answered as removed.
   */
  snapshotOf: number;
}

export type FeedItem =
  | { type: 'project'; project: Project }
  | { type: 'internalProject'; project: InternalProject }
  | { type: 'projectCredits'; id: string; credits: ProjectCredits }
  | { type: 'retirement'; retirement: Retirement }
  | { type: 'inventory'; account: 'buffer' | 'adjustment' | 'organization'; inventory: RegistryInventory }
  | {
      type: 'warehouse';
      organizationId: string;
      inventory: { credits: ReturnType<typeof warehouseInventory>; organizationId: string };
      reservations: Reservation[];
    }
  | { type: 'organization'; organization: Organization };

export interface FeedPage {
  changes: FeedItem[];
  removed: { type: FeedItemType; id: string }[];
  cursor: string;
  more: boolean;
}

const CURSOR_VERSION = 1;

export function encodeCursor(cursor: FeedCursor): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, cursor.seq, cursor.kind, cursor.key, cursor.at, cursor.snapshotOf]), 'utf8').toString(
    'base64url',
  );
}

const badCursor = () =>
  new RegistryError('bad_request', 'query.cursor: not a cursor of this registry; start again without one (a snapshot)');

/** The cursor a client sent back; anything this registry did not make is a 400 that changes nothing. */
export function decodeCursor(ctx: RegistryContext, text: string): FeedCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 6) throw badCursor();
  const [version, seq, kind, key, at, snapshotOf] = parsed as unknown[];
  if (version !== CURSOR_VERSION || !Number.isSafeInteger(seq) || typeof kind !== 'string' || typeof key !== 'string') throw badCursor();
  if (!Number.isSafeInteger(at) || !Number.isSafeInteger(snapshotOf)) throw badCursor();
  // A cursor ahead of the registry's sequence comes from another registry (or a restored backup).
  if ((seq as number) > feedBounds(ctx).lastNumber) throw badCursor();
  return { seq: seq as number, kind, key, at: at as number, snapshotOf: snapshotOf as number };
}

/**
 * The feed's bounds (the `feed_bounds` view of migration 0010): the highest change number handed out,
 * and the number below which every change is final. On SQLite they are the counter and the next
 * number; on PostgreSQL numbers are taken before commit, so only changes below the oldest number an
 * open transaction may still commit are read (a cursor never passes a change committed later).
 */
export function feedBounds(ctx: RegistryContext): { lastNumber: number; finalBelow: number } {
  // a view of one row, always there (not a table of the schema, so kysely does not know it)
  const row = ctx.db.first(sql<{ last_number: number; final_below: number }>`SELECT last_number, final_below FROM feed_bounds`)!;
  return { lastNumber: row.last_number, finalBelow: row.final_below };
}

/** The highest change number handed out so far. */
export function currentSequence(ctx: RegistryContext): number {
  return feedBounds(ctx).lastNumber;
}

/**
 * A page's keys: after the cursor's (seq, kind, key) and below the final bound (feedBounds), the
 * caller's warehouse only, of the kinds asked for. The kinds filter is on `kind || ''`, not `kind`: on `kind` SQLite would pick the
 * primary key (kind, key) over the sequence index and sort every key of those kinds for each page
 * (far slower a poll at --scale 100: bench/README.md); PostgreSQL plans it the same either way.
 */
export function feedPageQuery(page: {
  after: { seq: number; kind: string; key: string };
  finalBelow: number;
  organizationId: string | null;
  kinds: readonly FeedKeyKind[];
  limit: number;
}) {
  // One value per kind the feed has, unused ones repeating the first asked for: one statement whatever the kinds.
  const kinds = FEED_KEY_KINDS.map((_, i) => page.kinds[i] ?? page.kinds[0] ?? '');
  const { after } = page;
  return sql<{ kind: FeedKeyKind; key: string; seq: number }>`SELECT kind, key, seq FROM feed_changes
    WHERE (seq, kind, key) > (${after.seq}, ${after.kind}, ${after.key}) AND seq < ${page.finalBelow}
      AND (kind <> 'warehouse' OR key = ${page.organizationId}) AND (kind || '') IN (${sql.join(kinds)})
    ORDER BY seq, kind, key LIMIT ${page.limit}`;
}

/** Whether a reservation of the organization lapsed in (after, upTo]. */
const lapsedReservation = (v: { organizationId: string; after: number; upTo: number }, q: Q) =>
  q
    .selectFrom('reservations')
    .select(sql.lit(1).as('one'))
    .where('organization_id', '=', v.organizationId)
    .where('state', '=', sql.lit('pending'))
    .where('reserved_to', '>', v.after)
    .where('reserved_to', '<=', v.upTo);

const ACCOUNT_NAMES: Record<RegistryAccountKind, 'buffer' | 'adjustment' | 'organization'> = {
  buffer: 'buffer',
  adjustment: 'adjustment',
  registry: 'organization',
};

/**
 * A page of the feed: at most `limit` changed keys after `cursor` (null: a snapshot from the start),
 * of the `kinds` asked for (all by default).
 */
export function changesSince(
  ctx: RegistryContext,
  viewer: FeedViewer,
  cursor: FeedCursor | null,
  limit: number,
  kinds: readonly FeedKeyKind[] = FEED_KEY_KINDS,
): FeedPage {
  // One read transaction: every query of the page sees the same state of the registry.
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const { finalBelow } = feedBounds(ctx);
    const start = cursor ?? { seq: -1, kind: '', key: '', at: now, snapshotOf: finalBelow - 1 };
    // Only final changes (below `finalBelow`): one a transaction still open may commit is read next time.
    // Warehouse keys other than the caller's own organization's are never its business.
    const rows: { kind: string; key: string; seq: number }[] = ctx.db.all(
      feedPageQuery({ after: start, finalBelow, organizationId: viewer.organizationId, kinds, limit: limit + 1 }),
    );
    let more = rows.length > limit;
    if (more) rows.pop();
    // An account's inventory is one item of tens of MB at --scale 100 (every credit of the account):
    // a page carries at most one, so neither side holds several in one page's text at once.
    const firstInventory = rows.findIndex((r) => r.kind === 'inventory');
    const secondInventory = firstInventory === -1 ? -1 : rows.findIndex((r, i) => i > firstInventory && r.kind === 'inventory');
    if (secondInventory !== -1) {
      rows.length = secondInventory;
      more = true;
    }
    const keys = groupBy(rows, (r) => r.kind);
    const ids = (kind: string) => (keys.get(kind) ?? []).map((r) => r.key);

    const warehouses = new Set(ids('warehouse'));
    // Reservations lapse with time, not with a write: a warehouse where one lapsed since the cursor changed.
    if (cursor && viewer.organizationId && kinds.includes('warehouse') && start.at < now) {
      const lapsed = ctx.db.prepared(lapsedReservation).first({ organizationId: viewer.organizationId, after: start.at, upTo: now });
      if (lapsed) warehouses.add(viewer.organizationId);
    }

    const page: Omit<FeedPage, 'cursor' | 'more'> = { changes: [], removed: [] };
    // In a snapshot only keys changed since it started can have been seen, and so be removed.
    const seqOf = new Map(rows.map((r) => [`${r.kind}:${r.key}`, r.seq]));
    const kindOf: Record<FeedItemType, string> = {
      project: 'project',
      internalProject: 'project',
      projectCredits: 'project',
      retirement: 'retirement',
      inventory: 'inventory',
      warehouse: 'warehouse',
      organization: 'organization',
    };
    const removed = (type: FeedItemType, id: string) => {
      const key = type === 'inventory' ? (Object.keys(ACCOUNT_NAMES) as RegistryAccountKind[]).find((k) => ACCOUNT_NAMES[k] === id) : id;
      if ((seqOf.get(`${kindOf[type]}:${key}`) ?? Infinity) > start.snapshotOf) page.removed.push({ type, id });
    };
    addProjects(ctx, viewer, ids('project'), page.changes, removed);
    addRetirements(ctx, ids('retirement'), page.changes, removed);
    addOrganizations(ctx, viewer, ids('organization'), page.changes, removed);
    for (const kind of ids('inventory') as RegistryAccountKind[]) {
      const account = ACCOUNT_NAMES[kind];
      if (!account) continue;
      try {
        page.changes.push({ type: 'inventory', account, inventory: registryInventory(ctx, kind) });
      } catch (error) {
        // No registry operator organization: the endpoint answers 404, so there is nothing to see.
        if (!(error instanceof RegistryError && error.status === 404)) throw error;
        removed('inventory', account);
      }
    }
    for (const organizationId of warehouses) {
      if (viewer.warehouseRead && viewer.organizationId === organizationId) {
        page.changes.push({
          type: 'warehouse',
          organizationId,
          inventory: { credits: warehouseInventory(ctx, organizationId), organizationId },
          reservations: allReservations(ctx, organizationId, now),
        });
      } else removed('warehouse', organizationId);
    }

    const last = rows[rows.length - 1];
    // Once a snapshot has been read to its end, the reader has seen everything: removals apply in full.
    const snapshotOf = more ? start.snapshotOf : -1;
    const next: FeedCursor = last
      ? { seq: last.seq, kind: last.kind, key: last.key, at: now, snapshotOf }
      : { ...start, at: now, snapshotOf };
    return { ...page, cursor: encodeCursor(next), more };
  });
}

function addProjects(
  ctx: RegistryContext,
  viewer: FeedViewer,
  ids: readonly string[],
  out: FeedItem[],
  removed: (type: FeedItemType, id: string) => void,
): void {
  if (ids.length === 0) return;
  const { db } = ctx;
  const rows = db.all(
    selectProjects(db.q)
      .select(sql<0 | 1>`(${PUBLIC_PROJECT_CONDITION})`.as('is_public_view'))
      .where('p.id', 'in', idList(ids)),
  );
  const publicRows = rows.filter((r) => r.is_public_view === 1);
  const publicIds = new Set(publicRows.map((r) => r.id));
  // Each project presented once for both views (an examiner's internal one has every document).
  const present = projectPresenter(ctx, viewer.examinerRead ? rows : publicRows, viewer.examinerRead ? 'all' : 'public');
  for (const row of publicRows) out.push({ type: 'project', project: present(row, 'public') });
  for (const id of ids) if (!publicIds.has(id)) removed('project', id);

  const existing = new Set(rows.map((r) => r.id));
  if (viewer.examinerRead) {
    const events = groupBy(
      db.all(
        db.q
          .selectFrom('project_events')
          .select(['project_id', 'id', 'type', 'created_at', 'project_status', 'previous_project_status'])
          .where('project_id', 'in', idList(ids))
          .orderBy('project_id')
          .orderBy('created_at')
          .orderBy(sql`rowid`),
      ),
      (e) => e.project_id,
    );
    for (const row of rows) {
      const project = present(row, 'all');
      out.push({
        type: 'internalProject',
        project: {
          ...project,
          events: (events.get(project.id) ?? []).map((e): ProjectEvent => ({
            id: e.id,
            type: e.type,
            createdAt: iso(e.created_at),
            projectStatus: e.project_status,
            previousProjectStatus: e.previous_project_status,
          })),
        },
      });
    }
    for (const id of ids) if (!existing.has(id)) removed('internalProject', id);
  }
  // Credit data follows project visibility (handlers/credits.ts); one batch for the page's projects.
  const creditRows = viewer.examinerRead ? rows : publicRows;
  // (projectReferenceOf: the reference GET /carbonCredits/projects/{id} answers, cached once fixed)
  const credits = projectCreditsOf(
    ctx,
    creditRows.map((row) => projectReferenceOf(ctx, row.id)),
  );
  for (const id of ids) {
    const found = credits.get(id);
    if (found) out.push({ type: 'projectCredits', id, credits: found });
    else removed('projectCredits', id);
  }
}

function addRetirements(
  ctx: RegistryContext,
  ids: readonly string[],
  out: FeedItem[],
  removed: (type: FeedItemType, id: string) => void,
): void {
  if (ids.length === 0) return;
  const { db } = ctx;
  const rows = db.all(selectRetirements(db.q).where('r.id', 'in', idList(ids)));
  const found = new Set<string>();
  for (const row of rows) {
    found.add(row.id);
    out.push({ type: 'retirement', retirement: presentRetirement(ctx, row) });
  }
  for (const id of ids) if (!found.has(id)) removed('retirement', id);
}

function addOrganizations(
  ctx: RegistryContext,
  viewer: FeedViewer,
  ids: readonly string[],
  out: FeedItem[],
  removed: (type: FeedItemType, id: string) => void,
): void {
  if (ids.length === 0) return;
  const { db } = ctx;
  const rows = db.all(db.q.selectFrom('organizations').selectAll().where('id', 'in', idList(ids)));
  const shown = new Set<string>();
  for (const row of rows) {
    // The rule of GET /v1/organizations/{id} (queries/organizations.ts).
    if (row.is_public === 1 || viewer.examinerRead || viewer.organizationId === row.id) {
      shown.add(row.id);
      out.push({ type: 'organization', organization: presentOrganization(ctx, row) });
    }
  }
  for (const id of ids) if (!shown.has(id)) removed('organization', id);
}

const warehouseReservations = (v: { organizationId: string }, q: Q) =>
  selectReservations(q).where('r.organization_id', '=', v.organizationId).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc');

/** Every reservation of a warehouse, newest first (the order of GET …/reservations). */
function allReservations(ctx: RegistryContext, organizationId: string, now: number): Reservation[] {
  const rows = ctx.db.prepared(warehouseReservations).all({ organizationId });
  return rows.map((row) => presentReservation(ctx, row, now));
}

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
import { encodeCursor, feedBounds, feedPageQuery, type FeedCursor } from './feed-cursor';

export { currentSequence, decodeCursor, encodeCursor, feedBounds, feedPageQuery, type FeedCursor } from './feed-cursor';

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

/** What a page is narrowed to: `kinds` (all by default), and `organizationId`'s record and warehouse alone among those kinds. */
export interface FeedNarrowing {
  kinds?: readonly FeedKeyKind[] | undefined;
  organizationId?: string | undefined;
}

/**
 * A page of the feed: at most `limit` changed keys after `cursor` (null: a snapshot from the start),
 * narrowed as asked.
 */
export function changesSince(
  ctx: RegistryContext,
  viewer: FeedViewer,
  cursor: FeedCursor | null,
  limit: number,
  { kinds = FEED_KEY_KINDS, organizationId: onlyOrganization }: FeedNarrowing = {},
): FeedPage {
  // One read transaction: every query of the page sees the same state of the registry.
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const { finalBelow } = feedBounds(ctx);
    const start = cursor ?? { seq: -1, kind: '', key: '', at: now, snapshotOf: finalBelow - 1 };
    // Only final changes (below `finalBelow`): one a transaction still open may commit is read next time.
    // Warehouse keys other than the caller's own organization's are never its business.
    const rows: { kind: string; key: string; seq: number }[] = ctx.db.all(
      feedPageQuery({ after: start, finalBelow, organizationId: viewer.organizationId, kinds, onlyOrganization, limit: limit + 1 }),
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
    const ownWarehouseAsked = kinds.includes('warehouse') && (onlyOrganization === undefined || onlyOrganization === viewer.organizationId);
    if (cursor && viewer.organizationId && ownWarehouseAsked && start.at < now) {
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
    // Where the feed goes on comes first in the page's JSON: a client can ask for the next page as
    // soon as the answer's first bytes arrive, while the rest of this one is still on its way.
    return { cursor: encodeCursor(next), more, ...page };
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

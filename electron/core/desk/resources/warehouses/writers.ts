// The warehouses of the app's installed organizations (their credits and reservations, as JSON),
// written by the seed path's warehouses step or the installations' feeds (installation-feed.ts).
import type { Insertable } from 'kysely';
import type { Organization, Reservation, WarehouseInventoryCredit } from '@shared/registry/resources';
import type { CacheTables } from '@desk/cache/schema';
import type { FeedCursorKey } from '@desk/cache/types';
import { forgetKeepIds, keptIds, rememberKeepIds, type Q, type WriterBase } from '@desk/cache/writers';
import { putFreshOrganization } from '@desk/resources/organizations/writers';

const putWarehouse = (v: Insertable<CacheTables['warehouses']>, q: Q) =>
  q.insertInto('warehouses').values({
    organization_id: v.organization_id,
    organization_name: v.organization_name,
    can_write: v.can_write,
    credits_json: v.credits_json,
    reservations_json: v.reservations_json,
    fetched_at: v.fetched_at,
  });

const upsertWarehouse = (v: Insertable<CacheTables['warehouses']>, q: Q) =>
  q
    .insertInto('warehouses')
    .values({
      organization_id: v.organization_id,
      organization_name: v.organization_name,
      can_write: v.can_write,
      credits_json: v.credits_json,
      reservations_json: v.reservations_json,
      fetched_at: v.fetched_at,
    })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet((eb) => ({
        organization_name: eb.ref('excluded.organization_name'),
        can_write: eb.ref('excluded.can_write'),
        credits_json: eb.ref('excluded.credits_json'),
        reservations_json: eb.ref('excluded.reservations_json'),
        fetched_at: eb.ref('excluded.fetched_at'),
      })),
    );

export function createWarehouseWriters(base: WriterBase) {
  const { db, now, markSuccess } = base;
  return {
    replaceWarehouses(
      warehouses: readonly {
        organizationId: string;
        organizationName: string;
        canWrite: boolean;
        credits: WarehouseInventoryCredit[];
        reservations: Reservation[];
      }[],
    ): void {
      const at = now();
      const put = db.prepared(putWarehouse);
      db.transaction(() => {
        // Warehouses of organizations no longer installed are dropped with the rest.
        db.run(db.q.deleteFrom('warehouses'));
        for (const w of warehouses) {
          put.run({
            organization_id: w.organizationId,
            organization_name: w.organizationName,
            can_write: w.canWrite ? 1 : 0,
            credits_json: JSON.stringify(w.credits),
            reservations_json: JSON.stringify(w.reservations),
            fetched_at: at,
          });
        }
        markSuccess('warehouses', { full: true });
      });
    },

    /**
     * What the installations' narrowed feeds (warehouses and organizations) brought, in one
     * transaction: the warehouses they sent, replacing the cached ones; every warehouse the app may
     * no longer read dropped, the others' names and write access as the installations say now; the
     * installed organizations' records (fresh: no refresh needed); and each installation's cursor
     * (those of installations that are gone forgotten).
     */
    putInstallationFeeds(update: {
      sent: readonly { organizationId: string; credits: readonly unknown[]; reservations: readonly unknown[] }[];
      readable: readonly { organizationId: string; organizationName: string; canWrite: boolean }[];
      organizations: readonly Organization[];
      cursors: ReadonlyMap<FeedCursorKey, string>;
    }): void {
      const at = now();
      const byId = new Map(update.readable.map((w) => [w.organizationId, w]));
      db.transaction(() => {
        for (const w of update.sent) {
          const ref = byId.get(w.organizationId);
          if (!ref) continue;
          db.prepared(upsertWarehouse).run({
            organization_id: w.organizationId,
            organization_name: ref.organizationName,
            can_write: ref.canWrite ? 1 : 0,
            credits_json: JSON.stringify(w.credits),
            reservations_json: JSON.stringify(w.reservations),
            fetched_at: at,
          });
        }
        rememberKeepIds(db, [...byId.keys()]);
        db.run(db.q.deleteFrom('warehouses').where('organization_id', 'not in', keptIds(db.q)));
        forgetKeepIds(db);
        for (const w of update.readable)
          db.run(
            db.q
              .updateTable('warehouses')
              .set({ organization_name: w.organizationName, can_write: w.canWrite ? 1 : 0 })
              .where('organization_id', '=', w.organizationId),
          );
        markSuccess('warehouses', { full: true });
        for (const organization of update.organizations) putFreshOrganization(db, organization, true, at);
        base.forgetInstallationCursors();
        for (const [key, cursor] of update.cursors) base.setFeedCursorOf(key, cursor);
      });
    },
  };
}

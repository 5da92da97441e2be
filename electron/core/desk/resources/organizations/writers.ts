// The organizations' records (proponents of the cached projects and the app's installed
// organizations), with the ids the app was refused (organizations_unseen) so they are not asked for
// again at once, and which records a changed project list makes stale.
import type { Organization } from '@shared/registry/resources';
import type { Db, Q, WriterBase } from '@desk/cache/writers';
import { forgetKeepIds, keptIds, rememberKeepIds } from '@desk/cache/writers';

export const markOrganizationStale = (v: { id: string }, q: Q) =>
  q.updateTable('organizations').set({ needs_refresh: 1 }).where('id', '=', v.id).where('needs_refresh', '=', 0);
export const forgetUnseen = (v: { id: string }, q: Q) => q.deleteFrom('organizations_unseen').where('id', '=', v.id);
const putUnseen = (v: { id: string; at: number }, q: Q) => q.replaceInto('organizations_unseen').values({ id: v.id, checked_at: v.at });
const dropOrganization = (v: { id: string }, q: Q) => q.deleteFrom('organizations').where('id', '=', v.id);
const replaceOrganization = (v: { id: string; full_name: string; installed: 0 | 1; json: string; at: number }, q: Q) =>
  q.replaceInto('organizations').values({ id: v.id, full_name: v.full_name, installed: v.installed, json: v.json, fetched_at: v.at });
const upsertOrganization = (v: { id: string; full_name: string; installed: 0 | 1; json: string; at: number }, q: Q) =>
  q
    .insertInto('organizations')
    .values({ id: v.id, full_name: v.full_name, installed: v.installed, json: v.json, fetched_at: v.at, needs_refresh: 0 })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        full_name: eb.ref('excluded.full_name'),
        installed: eb.ref('excluded.installed'),
        json: eb.ref('excluded.json'),
        fetched_at: eb.ref('excluded.fetched_at'),
        needs_refresh: 0,
      })),
    );

/** Marks the records of a project list's proponents for a refresh (the list changed). */
export function markProponentsStale(db: Db, ids: Iterable<string>): void {
  for (const id of ids) {
    db.prepared(markOrganizationStale).run({ id });
    db.prepared(forgetUnseen).run({ id });
  }
}

/** Writes an organization's record as just read (no refresh needed) and forgets that it was unseen. */
export function putFreshOrganization(db: Db, organization: Organization, installed: boolean, at: number): void {
  db.prepared(upsertOrganization).run({
    id: organization.id,
    full_name: organization.fullName,
    installed: installed ? 1 : 0,
    json: JSON.stringify(organization),
    at,
  });
  db.prepared(forgetUnseen).run({ id: organization.id });
}

export function createOrganizationWriters(base: WriterBase) {
  const { db, now, markSuccess } = base;
  return {
    replaceOrganizations(organizations: readonly { organization: Organization; installed: boolean }[], options: { full: boolean }): void {
      const at = now();
      const put = db.prepared(replaceOrganization);
      db.transaction(() => {
        if (options.full) db.run(db.q.deleteFrom('organizations'));
        for (const { organization, installed } of organizations) {
          put.run({
            id: organization.id,
            full_name: organization.fullName,
            installed: installed ? 1 : 0,
            json: JSON.stringify(organization),
            at,
          });
        }
        markSuccess('organizations', { full: options.full });
      });
    },

    /**
     * Applies an incremental organizations pass: `fetched` are upserted (and no longer need a
     * refresh), `unseen` were not visible to the app (404) and are remembered as such, and every
     * organization or unseen id not in `keepIds` (no longer installed nor a proponent) is dropped.
     */
    updateOrganizations(update: {
      fetched: readonly { organization: Organization; installed: boolean }[];
      unseen: readonly string[];
      keepIds: readonly string[];
    }): void {
      const at = now();
      db.transaction(() => {
        for (const { organization, installed } of update.fetched) putFreshOrganization(db, organization, installed, at);
        for (const id of update.unseen) {
          db.prepared(dropOrganization).run({ id });
          db.prepared(putUnseen).run({ id, at });
        }
        rememberKeepIds(db, update.keepIds);
        db.run(db.q.deleteFrom('organizations').where('id', 'not in', keptIds(db.q)));
        db.run(db.q.deleteFrom('organizations_unseen').where('id', 'not in', keptIds(db.q)));
        forgetKeepIds(db);
        markSuccess('organizations', { full: true });
      });
    },

    /**
     * Organizations the changes feed sent (fresh: no refresh needed) and those it said left the
     * app's view; the organizations step then fetches what the feed cannot show (installed ones).
     */
    putFeedOrganizations(organizations: readonly Organization[], installedIds: ReadonlySet<string>, removed: readonly string[]): void {
      const at = now();
      db.transaction(() => {
        for (const organization of organizations) putFreshOrganization(db, organization, installedIds.has(organization.id), at);
        for (const id of removed) db.prepared(dropOrganization).run({ id });
        // The feed answers every change of an organization the app may see; only installed ones
        // (seen through their installation's token) still need the organizations step's refresh.
        db.run(db.q.updateTable('organizations').set({ needs_refresh: 0 }).where('installed', '=', 0).where('needs_refresh', '=', 1));
      });
    },
  };
}

// Warehouses and installed organizations' records from the changes feed. Only an installation's
// token may see its organization's warehouse (with organization_warehouse VIEW or WRITE) and, when
// it is not public, its record; so each installation reads the feed with its own token, narrowed to
// those two kinds (`kinds=warehouse,organization`) and to its own organization (`organizationId`:
// every public organization, which the app's own pages bring, was 2 MB in three more pages at
// --scale 100), from its own cursor: a snapshot the first time, then only what changed. This
// replaces the seed steps' two requests (or more) per installation. A registry made before
// `organizationId` answers every organization it may see: the others are passed over below. (A
// cursor kept from a read without it goes on narrowed: it leaves out only what was passed over.)
//
// Each installation's cursor is stored with the warehouse access it was read with (a change of it
// starts that installation again from a snapshot). An installation whose token is refused (401/403:
// suspended, uninstalled) has its warehouse dropped and is named in the outcome, as the seed step does.
import type { EndpointId } from '@shared/registry/endpoints';
import type { Organization } from '@shared/registry/resources';
import { RegistryClientError } from '@desk/client/errors';
import { answerBreaksContract, answerNotJson } from '@desk/client/registry-client';
import type { InstallationRef, StepOutcome } from '@desk/sync/context';
import type { FeedCursorKey } from '@desk/cache/types';
import { checkFeedItem } from '@desk/sync/feed-item';
import { FEED_PAGE_TIMEOUT_MS } from '@desk/sync/feed-pages';
import { canReadWarehouse, type WarehousesContext } from './sync';

const ENDPOINT: EndpointId = 'getChanges';
const KINDS = 'warehouse,organization';

interface Page {
  changes?: unknown;
  removed?: unknown;
  cursor?: unknown;
  more?: unknown;
}

/** The key of an installation's cursor in the cache, and the view it is stored with. */
const cursorKey = (i: InstallationRef): FeedCursorKey => `feed:installation:${i.id}`;
const cursorScope = (i: InstallationRef) => `${i.permissions.organization_warehouse ?? 'none'}:`;

interface InstallationRead {
  warehouse: { credits: unknown[]; reservations: unknown[] } | null;
  organization: Organization | null;
  cursor: string;
}

async function readInstallation(ctx: WarehousesContext, installation: InstallationRef, start: string): Promise<InstallationRead> {
  const read: InstallationRead = { warehouse: null, organization: null, cursor: start };
  for (;;) {
    const text = (
      await ctx.client.callRaw(ENDPOINT, {
        query: { cursor: read.cursor, limit: ctx.tuning.feedLimit, kinds: KINDS, organizationId: installation.organizationId },
        installationId: installation.id,
        timeoutMs: FEED_PAGE_TIMEOUT_MS,
      })
    ).text;
    let page: Page;
    try {
      page = JSON.parse(text) as Page;
    } catch {
      throw answerNotJson(ENDPOINT);
    }
    if (!Array.isArray(page.changes) || typeof page.cursor !== 'string' || typeof page.more !== 'boolean') {
      throw answerBreaksContract(ENDPOINT, [{ code: 'custom', path: [], message: 'not a page of the changes feed', input: page }]);
    }
    for (const [i, raw] of (page.changes as unknown[]).entries()) {
      const item = checkFeedItem(raw, i);
      // Other organizations (public ones, from a registry without `organizationId`) come with the app's own feed.
      if (item.type === 'warehouse' && item.organizationId === installation.organizationId)
        read.warehouse = { credits: item.inventory.credits, reservations: item.reservations };
      else if (item.type === 'organization' && item.organization.id === installation.organizationId) read.organization = item.organization;
    }
    read.cursor = page.cursor;
    if (!page.more) return read;
  }
}

/**
 * Reads every installation's narrowed feed and writes what it brought: the warehouses outcome, and
 * the installed organizations' records (the organizations step then has nothing left to ask for them).
 */
export async function syncInstallationFeeds(ctx: WarehousesContext): Promise<StepOutcome> {
  const sent: { organizationId: string; credits: unknown[]; reservations: unknown[] }[] = [];
  const organizations: Organization[] = [];
  const cursors = new Map<FeedCursorKey, string>();
  const refused: string[] = [];
  const refusedIds = new Set<string>();
  let done = 0;
  ctx.progress('warehouses', 0, ctx.installations.length);
  for (const installation of ctx.installations) {
    const key = cursorKey(installation);
    const scope = cursorScope(installation);
    const stored = ctx.cache.feedCursorOf(key);
    let start = stored?.startsWith(scope) ? stored.slice(scope.length) : '';
    let read: InstallationRead;
    try {
      try {
        read = await readInstallation(ctx, installation, start);
      } catch (error) {
        // A cursor this registry no longer knows: start again from a snapshot.
        if (!(start !== '' && error instanceof RegistryClientError && error.kind === 'http' && error.status === 400)) throw error;
        start = '';
        read = await readInstallation(ctx, installation, start);
      }
    } catch (error) {
      if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
        refused.push(`${installation.organizationName}: ${error.message}`);
        refusedIds.add(installation.organizationId);
        ctx.progress('warehouses', ++done, ctx.installations.length);
        continue;
      }
      throw error;
    }
    if (read.warehouse && canReadWarehouse(installation)) sent.push({ organizationId: installation.organizationId, ...read.warehouse });
    if (read.organization) organizations.push(read.organization);
    cursors.set(key, `${scope}${read.cursor}`);
    ctx.progress('warehouses', ++done, ctx.installations.length);
  }
  const readable = ctx.installations
    .filter((i) => canReadWarehouse(i) && !refusedIds.has(i.organizationId))
    .map((i) => ({
      organizationId: i.organizationId,
      organizationName: i.organizationName,
      canWrite: i.permissions.organization_warehouse === 'WRITE',
    }));
  ctx.cache.write.putInstallationFeeds({ sent, readable, organizations, cursors });
  if (!ctx.installations.some(canReadWarehouse)) return { status: 'skipped', reason: 'no installation with organization_warehouse' };
  return {
    status: 'ok',
    written: sent.length,
    deleted: 0,
    note: `changes feed, ${ctx.installations.length} installation(s)${refused.length > 0 ? `; refused: ${refused.join('; ')}` : ''}`,
  };
}

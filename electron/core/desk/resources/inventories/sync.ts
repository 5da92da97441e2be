// Resources read whole each run: the three registry inventories, the warehouses of installed
// organizations, and organization records. Each is written in one transaction.
import { z } from 'zod';
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '@shared/desk/api';
import type { EndpointId } from '@shared/registry/endpoints';
import { tolerant, type Organization, type Reservation } from '@shared/registry/resources';
import { RegistryClientError } from '@desk/client/errors';
import { answerBreaksContract, answerNotJson } from '@desk/client/registry-client';
import { hashJson, hashJsonBytes } from '@desk/cache/rows';
import type { ChangedInventory } from './writers';
import type { StagedRow } from '@desk/cache/types';
import { forEachLimited } from '@desk/sync/concurrency';
import type { InstallationRef, StepContext, StepOutcome } from '@desk/sync/context';
import { compileShapeCheck } from '@desk/sync/shape-check';
import { JsonShapeError, isObjectSpan, objectMembersAndElements, parseSpan, rootSpan } from '@desk/sync/json-spans';
import { STAGE_BATCH_ROWS } from '@desk/sync/paged-lists';

const INVENTORY_ENDPOINTS: Record<InventoryAccount, EndpointId> = {
  buffer: 'getBufferInventory',
  adjustment: 'getAdjustmentInventory',
  organization: 'getOrganizationInventory',
};

/** The answer without its credits (they are checked one by one as they are staged). */
const inventoryHead = z.object({ summary: tolerant.inventorySummary, organization: tolerant.organizationSummary });
const creditList = z.array(z.unknown());
/** True for a credit zod would answer exactly as it is (shape-check.ts). */
const exactCredit = compileShapeCheck(tolerant.inventoryCredit);

/** Issues of a part of the answer, with their paths from the answer's root. */
const under = (prefix: readonly PropertyKey[], issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] =>
  issues.map((i) => ({ ...i, path: [...prefix, ...i.path] }));

/** Runs a step of reading the answer's text; malformed JSON becomes the client's "not JSON" failure. */
function readingJson<T>(endpoint: EndpointId, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof JsonShapeError || error instanceof SyntaxError) throw answerNotJson(endpoint);
    throw error;
  }
}

/**
 * Stages one account's answer (its UTF-8 bytes, from its endpoint or an item of the changes feed);
 * null when it hashes as the cached one. Its bytes hashing as last time means nothing changed: not
 * parsed, not written. Otherwise the summary and organization are parsed and checked, and the
 * credits are parsed, checked, hashed and staged one at a time, straight from the bytes
 * (json-spans.ts): the whole answer is never held as a parsed graph, nor as a validated copy, nor
 * as one decoded string.
 * Only new or changed credits carry their JSON into staging. `endpoint` names what broke the
 * contract in an error.
 */
export function stageInventoryAnswer(
  ctx: StepContext,
  account: InventoryAccount,
  bytes: Buffer,
  endpoint: EndpointId,
): ChangedInventory | null {
  const answerHash = hashJsonBytes(bytes);
  if (ctx.cache.inventoryAnswerHash(account) === answerHash) return null;
  const { summary, organization, creditSpans } = readInventoryHead(bytes, endpoint);
  const known = ctx.cache.inventoryRowHashes(account);
  let batch: StagedRow[] = [];
  for (const row of checkedCredits(bytes, endpoint, creditSpans)) {
    batch.push({ id: row.id, hash: row.hash, json: known.get(row.id) === row.hash ? null : row.json });
    if (batch.length >= STAGE_BATCH_ROWS) {
      ctx.cache.write.stageInventoryCredits(account, batch);
      batch = [];
    }
  }
  if (batch.length > 0) ctx.cache.write.stageInventoryCredits(account, batch);
  return { account, answerHash, summary, organization, creditCount: creditSpans.length };
}

/** An answer's summary and organization, checked, and where its credits are in its bytes. */
function readInventoryHead(bytes: Buffer, endpoint: EndpointId) {
  const root = readingJson(endpoint, () => rootSpan(bytes));
  if (!isObjectSpan(bytes, root)) {
    // Not an object at all: the schema says what it is instead.
    const whole = readingJson(endpoint, () => parseSpan(bytes, root));
    throw answerBreaksContract(endpoint, z.object({}).safeParse(whole).error?.issues ?? []);
  }
  const { head, creditSpans, creditsValue } = readingJson(endpoint, () => {
    // The members and the credits' elements in one scan of the answer.
    const { members, elements } = objectMembersAndElements(bytes, root, 'credits');
    const parsed = (name: string) => {
      const span = members.get(name);
      return span ? parseSpan(bytes, span) : undefined;
    };
    return {
      head: { summary: parsed('summary'), organization: parsed('organization') },
      creditSpans: elements,
      creditsValue: elements ? null : parsed('credits'),
    };
  });
  const checkedHead = inventoryHead.safeParse(head);
  const creditsIssues = creditSpans ? [] : under(['credits'], creditList.safeParse(creditsValue).error?.issues ?? []);
  if (!checkedHead.success || !creditSpans) throw answerBreaksContract(endpoint, [...(checkedHead.error?.issues ?? []), ...creditsIssues]);
  return { ...checkedHead.data, creditSpans };
}

/** The answer's credits one at a time, each parsed from its span, checked, and as JSON with its hash. */
function* checkedCredits(
  bytes: Buffer,
  endpoint: EndpointId,
  creditSpans: ReturnType<typeof readInventoryHead>['creditSpans'],
): Generator<{ id: string; hash: string; json: string }> {
  for (const [i, span] of creditSpans.entries()) {
    const raw: unknown = readingJson(endpoint, () => parseSpan(bytes, span));
    // The compiled shape check first (seed-answers.ts): zod only for a credit it is not sure of.
    let credit: { id: string };
    if (exactCredit(raw)) credit = raw;
    else {
      const checked = tolerant.inventoryCredit.safeParse(raw);
      if (!checked.success) throw answerBreaksContract(endpoint, under(['credits', i], checked.error.issues));
      credit = checked.data;
    }
    const json = JSON.stringify(credit);
    yield { id: credit.id, hash: hashJson(json), json };
  }
}

/**
 * The three registry accounts. Each answer is read whole (the interface does not page them), all
 * three asked at once (the registry prepares the next while one is read); an unchanged one is
 * skipped unparsed, and a changed one is staged credit by credit; all changed accounts are swapped
 * in by one transaction at the end, so readers never see a half-written inventory and a run that
 * fails leaves the previous inventories intact. Into an empty cache (a first sync) the credits are
 * written straight into their table instead, in that same one transaction (writers.ts
 * loadInventories).
 */
export async function syncInventories(ctx: StepContext): Promise<StepOutcome> {
  ctx.cache.write.beginInventoryStaging();
  const answers = INVENTORY_ACCOUNTS.map((account) => {
    const answer = ctx.client.callBytes(INVENTORY_ENDPOINTS[account]);
    // Failing while an earlier one is awaited is not an unhandled rejection: it is thrown in its turn.
    answer.catch(() => undefined);
    return answer;
  });
  const changed: ChangedInventory[] = [];
  let loaded: { written: number; deleted: number } | null = null;
  try {
    ctx.progress('inventories', 0, INVENTORY_ACCOUNTS.length);
    if (ctx.cache.write.inventoriesLoadable()) {
      const bodies: Buffer[] = [];
      for (const [i, answer] of answers.entries()) {
        bodies.push((await answer).bytes);
        ctx.progress('inventories', i + 1, INVENTORY_ACCOUNTS.length);
      }
      loaded = ctx.cache.write.loadInventories((put) => {
        for (const [i, account] of INVENTORY_ACCOUNTS.entries()) {
          const bytes = bodies[i]!;
          const endpoint = INVENTORY_ENDPOINTS[account];
          const answerHash = hashJsonBytes(bytes);
          if (ctx.cache.inventoryAnswerHash(account) === answerHash) continue;
          const { summary, organization, creditSpans } = readInventoryHead(bytes, endpoint);
          for (const row of checkedCredits(bytes, endpoint, creditSpans)) put(account, row);
          changed.push({ account, answerHash, summary, organization, creditCount: creditSpans.length });
        }
        return changed;
      });
    } else {
      for (const [i, account] of INVENTORY_ACCOUNTS.entries()) {
        const change = stageInventoryAnswer(ctx, account, (await answers[i]!).bytes, INVENTORY_ENDPOINTS[account]);
        if (change) changed.push(change);
        ctx.progress('inventories', i + 1, INVENTORY_ACCOUNTS.length);
      }
    }
  } catch (error) {
    ctx.cache.write.discardInventoryStaging();
    throw error;
  } finally {
    // Nothing of this step is still in flight when it reports.
    await Promise.all(answers.map((a) => a.catch(() => undefined)));
  }
  const { written, deleted } = loaded ?? ctx.cache.write.commitInventories(changed);
  const unchanged = INVENTORY_ACCOUNTS.filter((a) => !changed.some((c) => c.account === a));
  return { status: 'ok', written, deleted, ...(unchanged.length > 0 ? { note: `unchanged: ${unchanged.join(', ')}` } : {}) };
}

const warehouseLevel = (i: InstallationRef) => i.permissions.organization_warehouse;
export const canReadWarehouse = (i: InstallationRef) => warehouseLevel(i) === 'VIEW' || warehouseLevel(i) === 'WRITE';

export async function syncWarehouses(ctx: StepContext): Promise<StepOutcome> {
  const targets = ctx.installations.filter(canReadWarehouse);
  if (targets.length === 0) {
    ctx.cache.write.replaceWarehouses([]);
    return { status: 'skipped', reason: 'no installation with organization_warehouse' };
  }
  const refused: string[] = [];
  const warehouses: Parameters<typeof ctx.cache.write.replaceWarehouses>[0][number][] = [];
  let done = 0;
  ctx.progress('warehouses', 0, targets.length);
  for (const installation of targets) {
    const call = { params: { id: installation.organizationId }, installationId: installation.id };
    try {
      const inventory = await ctx.client.call('getWarehouseInventory', call);
      const reservations: Reservation[] = [];
      for (let page = 0; ; page++) {
        const answer = await ctx.client.call('listReservations', { ...call, query: { page, limit: ctx.tuning.pageSize } });
        reservations.push(...answer.reservations);
        if (answer.reservations.length < ctx.tuning.pageSize) break;
      }
      warehouses.push({
        organizationId: installation.organizationId,
        organizationName: installation.organizationName,
        canWrite: warehouseLevel(installation) === 'WRITE',
        credits: inventory.credits,
        reservations,
      });
    } catch (error) {
      // An installation suspended or stripped of the permission: its warehouse is no longer ours to
      // show; the others still sync.
      if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
        refused.push(`${installation.organizationName}: ${error.message}`);
      } else throw error;
    }
    ctx.progress('warehouses', ++done, targets.length);
  }
  ctx.cache.write.replaceWarehouses(warehouses);
  return {
    status: 'ok',
    written: warehouses.length,
    deleted: 0,
    ...(refused.length > 0 ? { note: `refused: ${refused.join('; ')}` } : {}),
  };
}

/**
 * Installed organizations (with their installation's token, so a non-public one is visible) and
 * every proponent seen (`feed`: the changes feed keeps cached records current, see below). Like per-project answers, an organization is fetched again only when it is
 * new to the cache, older than perProjectMaxAgeMs, named by a project row that changed since
 * (needs_refresh), or installed/uninstalled since; a proponent the app may not see (404) is
 * remembered and asked again under the same rule.
 */
export async function syncOrganizations(
  ctx: StepContext,
  options: { feed: boolean; proponents?: () => string[] } = { feed: false },
): Promise<StepOutcome> {
  const installedBy = new Map(ctx.installations.map((i) => [i.organizationId, i.id]));
  const ids = [...new Set([...installedBy.keys(), ...(options.proponents ?? (() => ctx.cache.proponentIds()))()])];
  const { cached, unseen } = ctx.cache.organizationFreshness();
  const now = ctx.clock.now();
  const maxAge = ctx.tuning.perProjectMaxAgeMs;
  const todo = ids.filter((id) => {
    const have = cached.get(id);
    // With the changes feed a cached record is kept current by the feeds (the app's, and the
    // installations' for installed ones): only one that is no longer installed is asked again,
    // with the app's token, to see whether the app alone may still see it.
    if (have && options.feed) return have.installed && !installedBy.has(id);
    if (have) return have.needsRefresh || now - have.fetchedAt >= maxAge || have.installed !== installedBy.has(id);
    const checkedAt = unseen.get(id);
    // An installation may show what the app alone could not.
    return checkedAt === undefined || now - checkedAt >= maxAge || installedBy.has(id);
  });
  const fetched: { organization: Organization; installed: boolean }[] = [];
  const notVisible: string[] = [];
  let done = 0;
  ctx.progress('organizations', 0, todo.length);
  await forEachLimited(todo, ctx.tuning.concurrency, async (id) => {
    const installationId = installedBy.get(id);
    try {
      const { organization } = await ctx.client.call('getOrganizationV1', {
        params: { id },
        ...(installationId ? { installationId } : {}),
      });
      fetched.push({ organization, installed: installationId !== undefined });
    } catch (error) {
      // Not visible to this app (non-public) or gone: simply not listed.
      if (!(error instanceof RegistryClientError && error.kind === 'http' && error.status === 404)) throw error;
      notVisible.push(id);
    }
    ctx.progress('organizations', ++done, todo.length);
  });
  ctx.cache.write.updateOrganizations({ fetched, unseen: notVisible, keepIds: ids });
  return { status: 'ok', written: fetched.length, deleted: 0 };
}

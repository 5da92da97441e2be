// The three registry inventories, read whole each run (the seed interface does not page them) and
// written in one transaction; also an inventory item of the changes feed (stageInventoryAnswer).
import { z } from 'zod';
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '@shared/desk/api';
import type { EndpointId } from '@shared/registry/endpoints';
import { tolerant, type InventoryCredit } from '@shared/registry/resources';
import { answerBreaksContract, answerNotJson } from '@desk/client/registry-client';
import { hashJson, hashJsonBytes } from '@desk/cache/rows';
import type { ChangedInventory } from './writers';
import { creditColumns, type CreditColumns } from './credit-rows';
import type { StagedRow } from '@desk/cache/types';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import { compileShapeCheck } from '@desk/sync/shape-check';
import { JsonShapeError, isObjectSpan, objectMembersAndElements, parseSpan, rootSpan } from '@desk/sync/json-spans';
import { STAGE_BATCH_ROWS } from '@desk/sync/paged-lists';
import type { createInventoryWriters } from './writers';
import type { createInventoryQueries } from './queries';
import type { CacheWith } from '@desk/cache/core';

/** The cache as the inventories' step use it. */
export type InventoriesContext = StepContext<
  CacheWith<ReturnType<typeof createInventoryWriters>, ReturnType<typeof createInventoryQueries>>
>;

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
  ctx: InventoriesContext,
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
): Generator<{ id: string; hash: string; json: string; columns: CreditColumns }> {
  for (const [i, span] of creditSpans.entries()) {
    const raw: unknown = readingJson(endpoint, () => parseSpan(bytes, span));
    // The compiled shape check first (seed-answers.ts): zod only for a credit it is not sure of.
    let credit: InventoryCredit;
    if (exactCredit(raw)) credit = raw;
    else {
      const checked = tolerant.inventoryCredit.safeParse(raw);
      if (!checked.success) throw answerBreaksContract(endpoint, under(['credits', i], checked.error.issues));
      credit = checked.data;
    }
    const json = JSON.stringify(credit);
    yield { id: credit.id, hash: hashJson(json), json, columns: creditColumns(credit) };
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
/** The three answers, asked ahead of the step (a SeedPrefetch): each is whole, so held until the step's turn. */
export function askInventoriesAhead(ctx: InventoriesContext): void {
  for (const account of INVENTORY_ACCOUNTS) void ctx.client.callBytes(INVENTORY_ENDPOINTS[account]);
}

export async function syncInventories(ctx: InventoriesContext): Promise<StepOutcome> {
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

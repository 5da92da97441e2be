// An account's inventory as an item of the changes feed (tens of MB at --scale 100): its head
// checked at once, its credits parsed and checked one by one as they are written, from the page's
// bytes (sync/json-spans.ts), so it is never held as one parsed graph.
import { z } from 'zod';
import type { InventoryAccount } from '@shared/desk/api';
import { tolerant, type InventoryCredit, type InventorySummary, type OrganizationSummary } from '@shared/registry/resources';
import { FEED_INVENTORY_ACCOUNTS } from '@shared/registry/vocabulary';
import { answerBreaksContract } from '@desk/client/registry-client';
import { compileShapeCheck } from '@desk/sync/shape-check';
import { arrayElements, isArraySpan, isObjectSpan, objectMembers, parseSpan, type Span } from '@desk/sync/json-spans';
import { FEED_ENDPOINT, readingJson } from '@desk/sync/feed-pages';

/** An account's inventory item: its head checked, its credits parsed and checked one by one as they are read. */
export interface FeedInventory {
  /** The answer's bytes as sent (the hash of their text tells an unchanged answer). */
  bytes: Buffer;
  summary: InventorySummary;
  organization: OrganizationSummary;
  credits: () => Iterable<InventoryCredit>;
}

const inventoryHead = z.object({
  account: z.enum(FEED_INVENTORY_ACCOUNTS),
  summary: tolerant.inventorySummary,
  organization: tolerant.organizationSummary,
});
const exactCredit = compileShapeCheck(tolerant.inventoryCredit);

/**
 * An inventory item read from its span without parsing its credits (null for any other item):
 * the account, summary and organization checked now, each credit parsed and checked as it is read.
 */
export function inventoryItem(text: Buffer, span: Span, index: number): { account: InventoryAccount; inventory: FeedInventory } | null {
  if (!isObjectSpan(text, span)) return null;
  const members = readingJson(() => objectMembers(text, span));
  const type = members.get('type');
  if (!type || readingJson(() => parseSpan(text, type)) !== 'inventory') return null;
  const inventorySpan = members.get('inventory');
  const parts = readingJson(() => {
    const inner = inventorySpan && isObjectSpan(text, inventorySpan) ? objectMembers(text, inventorySpan) : null;
    const value = (span: Span | undefined) => (span ? parseSpan(text, span) : undefined);
    const credits = inner?.get('credits');
    return {
      head: {
        account: value(members.get('account')),
        summary: value(inner?.get('summary')),
        organization: value(inner?.get('organization')),
      },
      credits: credits && isArraySpan(text, credits) ? arrayElements(text, credits) : null,
    };
  });
  const head = inventoryHead.safeParse(parts.head);
  const at = (path: readonly PropertyKey[], issues: readonly z.core.$ZodIssue[]) =>
    answerBreaksContract(
      FEED_ENDPOINT,
      issues.map((issue) => ({ ...issue, path: ['changes', index, ...path, ...issue.path] })),
    );
  if (!head.success) throw at([], head.error.issues);
  const creditSpans = parts.credits;
  if (!creditSpans || !inventorySpan)
    throw at(['inventory', 'credits'], [{ code: 'custom', path: [], message: 'expected an array', input: undefined }]);
  function* credits(): Iterable<InventoryCredit> {
    for (const [j, credit] of creditSpans!.entries()) {
      const raw = readingJson(() => parseSpan(text, credit));
      if (exactCredit(raw)) yield raw;
      else {
        const checked = tolerant.inventoryCredit.safeParse(raw);
        if (!checked.success) throw at(['inventory', 'credits', j], checked.error.issues);
        yield checked.data;
      }
    }
  }
  return {
    account: head.data.account,
    inventory: {
      bytes: text.subarray(inventorySpan.start, inventorySpan.end),
      summary: head.data.summary,
      organization: head.data.organization,
      credits,
    },
  };
}

// One item of a changes-feed page, checked against the contract's tolerant schema: an item sent
// exactly as the schema describes it is used as it is (a compiled check, shape-check.ts); anything
// else (unknown fields, another field order, a breach of the contract) is decided by zod, whose
// refusal names the item's place in the page. Used by the app's feed and the installations' feeds.
import type { z } from 'zod';
import { feedItem } from '@shared/registry/endpoints';
import { tolerant } from '@shared/registry/resources';
import { answerBreaksContract } from '../client/registry-client';
import { compileShapeCheck } from './shape-check';

const itemSchema = feedItem(tolerant);
const exactItem = compileShapeCheck(itemSchema);

export type FeedItem = z.output<typeof itemSchema>;

/** The page's `index`th item, checked; a breach of the contract throws naming `changes.<index>.…`. */
export function checkFeedItem(raw: unknown, index: number): FeedItem {
  if (exactItem(raw)) return raw;
  const checked = itemSchema.safeParse(raw);
  if (!checked.success)
    throw answerBreaksContract(
      'getChanges',
      checked.error.issues.map((issue) => ({ ...issue, path: ['changes', index, ...issue.path] })),
    );
  return checked.data;
}

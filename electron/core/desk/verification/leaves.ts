// A served leaf's content as the desk keeps it: the log's canonical JSON {"id", "kind", "row"}
// (docs/transparency.md). The page's `kind` and `id` must be the leaf's own (a registry may not label
// one record's leaf as another's), and a movement leaf's row is kept to match synced records against.
import type { ServedLeaf } from '@shared/transparency/verifier';
import { LogVerificationError } from '@shared/transparency/verifier';
import type { CacheTables } from '../cache/schema';

/** A movement leaf's row as the cache keeps it (`hv_movements`): grams, epoch ms. */
export type KeptMovement = CacheTables['hv_movements'];

const decoder = new TextDecoder('utf-8', { fatal: true });
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;

/** The movement a leaf records, or null for another kind; throws when the leaf is not what the page says. */
export function movementOfLeaf(leaf: ServedLeaf, bytes: Uint8Array): KeptMovement | null {
  if (leaf.kind !== 'movement') return null;
  let doc: { id?: unknown; kind?: unknown; row?: Record<string, unknown> };
  try {
    doc = JSON.parse(decoder.decode(bytes)) as typeof doc;
  } catch {
    throw new LogVerificationError('replay', `entry ${leaf.index} is not a leaf the desk can read`, { leaf });
  }
  const row = doc.row;
  if (doc.kind !== leaf.kind || doc.id !== leaf.id || !row || typeof row !== 'object') {
    throw new LogVerificationError('replay', `entry ${leaf.index} is served as ${leaf.kind} ${leaf.id} but records something else`, {
      leaf,
    });
  }
  return {
    id: Number(row.id),
    leaf: leaf.index,
    credit_id: String(row.credit_id),
    kind: String(row.kind),
    from_account: text(row.from_account),
    to_account: text(row.to_account),
    amount: Number(row.amount),
    created_at: Number(row.created_at),
    reference: text(row.reference),
  };
}

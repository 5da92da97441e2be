// A served leaf's content as the desk keeps it: the log's canonical JSON {"id", "kind", "row"}
// (docs/transparency.md). The page's `kind` and `id` must be the leaf's own (a registry may not label
// one record's leaf as another's), and a movement leaf's row is kept to match synced records against.
import type { ServedLeaf } from '@shared/transparency/verifier';
import { LogVerificationError } from '@shared/transparency/verifier';
import type { CacheTables } from '../cache/schema';

/** A movement leaf's row as the cache keeps it (`hv_movements`): grams, epoch ms. */
export type KeptMovement = CacheTables['hv_movements'];

/**
 * A page's movement rows in columns, the `i`th movement at index `i` of each (`count` of them): how
 * they cross from the replay's thread to the sync's. Structured cloning an object per movement cost
 * the two threads about five times as much as these few arrays (a first sync at --scale 100 hands
 * over 281 pages of up to 1,000: bench/README.md, sync), and the sync's thread then made an object
 * of each again.
 */
export interface MovementColumns {
  count: number;
  id: Float64Array;
  leaf: Float64Array;
  amount: Float64Array;
  createdAt: Float64Array;
  creditId: string[];
  kind: string[];
  fromAccount: (string | null)[];
  toAccount: (string | null)[];
  reference: (string | null)[];
}

/** Room for `capacity` movements (a page's leaves), none yet. */
export function emptyMovements(capacity: number): MovementColumns {
  return {
    count: 0,
    id: new Float64Array(capacity),
    leaf: new Float64Array(capacity),
    amount: new Float64Array(capacity),
    createdAt: new Float64Array(capacity),
    creditId: [],
    kind: [],
    fromAccount: [],
    toAccount: [],
    reference: [],
  };
}

/** The array buffers of `columns`' numbers, which a message may hand over rather than copy. */
export const movementBuffers = (columns: MovementColumns): ArrayBuffer[] =>
  [columns.id, columns.leaf, columns.amount, columns.createdAt].map((numbers) => numbers.buffer as ArrayBuffer);

const decoder = new TextDecoder('utf-8', { fatal: true });
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;

/**
 * Adds the movement a leaf records to `into` (room for it made by `emptyMovements`); nothing for a
 * leaf of another kind. Throws when the leaf is not what the page says.
 */
export function addMovementOfLeaf(into: MovementColumns, leaf: ServedLeaf, bytes: Uint8Array): void {
  if (leaf.kind !== 'movement') return;
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
  const i = into.count++;
  into.id[i] = Number(row.id);
  into.leaf[i] = leaf.index;
  into.creditId.push(String(row.credit_id));
  into.kind.push(String(row.kind));
  into.fromAccount.push(text(row.from_account));
  into.toAccount.push(text(row.to_account));
  into.amount[i] = Number(row.amount);
  into.createdAt[i] = Number(row.created_at);
  into.reference.push(text(row.reference));
}

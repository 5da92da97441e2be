// A replayed page's movements in columns (verification/leaves.ts): read from the leaves' canonical
// JSON as the rows were, other kinds of leaf skipped, a leaf that is not what its page says refused;
// handed from the replay's thread to the sync's with their numbers' buffers moved, not copied; and
// kept in the cache's temporary table row for row (verification/store.ts).
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServedLeaf } from '@shared/transparency/verifier';
import { LogVerificationError } from '@shared/transparency/verifier';
import { openDeskCache } from '@desk/cache';
import { addMovementOfLeaf, emptyMovements, movementBuffers, type KeptMovement, type MovementColumns } from '@desk/verification/leaves';
import { keepReplayed, startReplay } from '@desk/verification/store';
import { makeDataDir } from '@test/support/registry';

const work = makeDataDir('desk-movement-columns-');
afterAll(() => work.remove());

const encoder = new TextEncoder();

/** A leaf as a registry serves it, with its bytes (the canonical JSON {"id", "kind", "row"}). */
function served(index: number, kind: string, id: string, row: Record<string, unknown>): { leaf: ServedLeaf; bytes: Uint8Array } {
  const bytes = encoder.encode(JSON.stringify({ id, kind, row }));
  return { leaf: { index, kind, id, data: Buffer.from(bytes).toString('base64') }, bytes };
}

const movementRow = (id: number, overrides: Record<string, unknown> = {}) => ({
  amount: 12_345_678_901,
  created_at: 1_700_000_000_123 + id,
  credit_id: `credit-${id}`,
  from_account: `org-${id}`,
  id,
  kind: 'retire',
  reference: `retirement-${id}`,
  to_account: null,
  ...overrides,
});

/** The `i`th movement of `columns` as the row the cache keeps. */
const rowAt = (c: MovementColumns, i: number): KeptMovement => ({
  id: c.id[i]!,
  leaf: c.leaf[i]!,
  credit_id: c.creditId[i]!,
  kind: c.kind[i]!,
  from_account: c.fromAccount[i]!,
  to_account: c.toAccount[i]!,
  amount: c.amount[i]!,
  created_at: c.createdAt[i]!,
  reference: c.reference[i]!,
});

/** A page of three leaves: two movements around an audit entry, which records no movement. */
function pageOfLeaves(): MovementColumns {
  const leaves = [
    served(40, 'movement', '7', movementRow(7)),
    served(41, 'audit', 'a-1', { id: 'a-1', action: 'login' }),
    // ids and accounts as numbers in the row are kept as text, a missing reference as null
    served(42, 'movement', '8', movementRow(8, { kind: 'transfer', to_account: 55, reference: undefined })),
  ];
  const columns = emptyMovements(leaves.length);
  for (const { leaf, bytes } of leaves) addMovementOfLeaf(columns, leaf, bytes);
  return columns;
}

const expectedRows: KeptMovement[] = [
  {
    id: 7,
    leaf: 40,
    credit_id: 'credit-7',
    kind: 'retire',
    from_account: 'org-7',
    to_account: null,
    amount: 12_345_678_901,
    created_at: 1_700_000_000_130,
    reference: 'retirement-7',
  },
  {
    id: 8,
    leaf: 42,
    credit_id: 'credit-8',
    kind: 'transfer',
    from_account: 'org-8',
    to_account: '55',
    amount: 12_345_678_901,
    created_at: 1_700_000_000_131,
    reference: null,
  },
];

describe("a replayed page's movements in columns", () => {
  it("holds each movement leaf's row, in order, and nothing of other leaves", () => {
    const columns = pageOfLeaves();
    expect(columns.count).toBe(2);
    expect([0, 1].map((i) => rowAt(columns, i))).toEqual(expectedRows);
  });

  it('refuses a leaf whose content is not what its page says', () => {
    const columns = emptyMovements(2);
    // the page names movement 9; the leaf records movement 10
    const relabelled = { ...served(3, 'movement', '10', movementRow(10)), leaf: { index: 3, kind: 'movement', id: '9', data: '' } };
    expect(() => addMovementOfLeaf(columns, relabelled.leaf, relabelled.bytes)).toThrow(/entry 3 is served as movement 9/);
    const unreadable = { leaf: { index: 4, kind: 'movement', id: '4', data: '' }, bytes: encoder.encode('{"id":') };
    try {
      addMovementOfLeaf(columns, unreadable.leaf, unreadable.bytes);
      expect.unreachable('an unreadable leaf was taken');
    } catch (error) {
      expect(error).toBeInstanceOf(LogVerificationError);
      expect((error as LogVerificationError).kind).toBe('replay');
      expect((error as Error).message).toContain('entry 4');
    }
    expect(columns.count).toBe(0);
  });

  it('crosses a message channel whole, its numbers moved rather than copied', async () => {
    const columns = pageOfLeaves();
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<MovementColumns>((resolve) => port2.once('message', resolve));
    port1.postMessage(columns, movementBuffers(columns));
    const arrived = await received;
    port1.close();
    expect([0, 1].map((i) => rowAt(arrived, i))).toEqual(expectedRows);
    // the sender's arrays are detached: nothing of them was copied
    expect(columns.id.length).toBe(0);
    expect(columns.createdAt.length).toBe(0);
  });

  it('is kept in the temporary table row for row, many rows to a statement', () => {
    const cache = openDeskCache(join(work.dir, 'kept.sqlite'));
    startReplay(cache.db);
    keepReplayed(cache.db, pageOfLeaves());
    keepReplayed(cache.db, emptyMovements(0));
    // 250 movements: two statements of 100 rows, then 50 of one
    const leaves = Array.from({ length: 250 }, (_, i) => served(100 + i, 'movement', String(20 + i), movementRow(20 + i)));
    const many = emptyMovements(leaves.length);
    for (const { leaf, bytes } of leaves) addMovementOfLeaf(many, leaf, bytes);
    keepReplayed(cache.db, many);
    const kept = cache.db.raw.prepare('SELECT * FROM temp.hv_replay ORDER BY leaf').all() as KeptMovement[];
    expect(kept.slice(0, 2)).toEqual(expectedRows);
    expect(kept.slice(2)).toEqual(Array.from({ length: 250 }, (_, i) => rowAt(many, i)));
    expect(kept[251]).toMatchObject({ id: 269, leaf: 349, reference: 'retirement-269', amount: 12_345_678_901 });
    // the numbers are stored as integers, as the cache's movements are
    const types =
      "SELECT DISTINCT typeof(id) || ' ' || typeof(leaf) || ' ' || typeof(amount) || ' ' || typeof(created_at) FROM temp.hv_replay";
    expect(cache.db.raw.prepare(types).pluck().all()).toEqual(['integer integer integer integer']);
    cache.close();
  });
});

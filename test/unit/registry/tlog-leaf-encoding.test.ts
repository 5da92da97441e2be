// A leaf's bytes are canonicalJson({ id, kind, row }) (docs/transparency.md); encodeLeaf writes that
// text out by hand, with each kind's column order cached, because every ledger write encodes two.
// Checked here against canonicalJson itself, on every kind of value a row holds and on rows of one
// kind whose columns change (a migration adds one), so that a stale cached order cannot go unseen.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '@shared/canonical-json';
import { encodeLeaf, leafHashHex, leafIdOf, type LeafKind } from '@registry/transparency/leaf';

/** The definition: bytes as {"$base64": …}, big integers as decimal text, the rest as canonicalJson. */
function reference(kind: LeafKind, row: Record<string, unknown>): string {
  const value = (v: unknown) =>
    v instanceof Uint8Array ? { $base64: Buffer.from(v).toString('base64') } : typeof v === 'bigint' ? v.toString() : v;
  return canonicalJson({ id: leafIdOf(kind, row), kind, row: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, value(v)])) });
}

const movement = {
  id: 8,
  credit_id: 'exPost-4-0xda8d',
  kind: 'deposit',
  from_account: '13bb4090-7281-4df0-9227-f59dba73160b',
  to_account: null,
  amount: 100_000_000_000,
  created_at: 1_795_953_546_695,
  reference: 'quote " backslash \\ ünïcödé ☃ \u0001',
};
const audit = {
  seq: 1,
  id: 'eec9f14f-80bd-4ebc-869c-ad7d56b56b36',
  at: 1_795_953_547_148,
  operator_id: null,
  actor: 'bench',
  action: 'warehouse.deposit',
  target_ids: '["exPost-1"]',
  outcome: 'succeeded',
  detail: '{"i":1}',
};

describe('encodeLeaf', () => {
  it('writes exactly canonicalJson({ id, kind, row }) for stored rows', () => {
    expect(encodeLeaf('movement', movement)).toBe(reference('movement', movement));
    expect(encodeLeaf('audit', audit)).toBe(reference('audit', audit));
    expect(encodeLeaf('audit', audit)).toBe(
      '{"id":"eec9f14f-80bd-4ebc-869c-ad7d56b56b36","kind":"audit","row":{"action":"warehouse.deposit","actor":"bench",' +
        '"at":1795953547148,"detail":"{\\"i\\":1}","id":"eec9f14f-80bd-4ebc-869c-ad7d56b56b36","operator_id":null,' +
        '"outcome":"succeeded","seq":1,"target_ids":"[\\"exPost-1\\"]"}}',
    );
  });

  it('follows a kind whose columns change from one row to the next', () => {
    const withColumn = { ...movement, added_later: 'x', a_first: 1 };
    const reordered = Object.fromEntries(Object.entries(movement).reverse());
    const renamed = Object.fromEntries(Object.entries(movement).map(([k, v]) => [k === 'reference' ? 'a_reference' : k, v]));
    for (const row of [movement, withColumn, movement, reordered, renamed, { ...movement, reference: undefined }, movement])
      expect(encodeLeaf('movement', row)).toBe(reference('movement', row));
  });

  it('agrees with canonicalJson on any row of text, numbers, NULL, big integers and bytes', () => {
    const cell = fc.oneof(fc.string({ unit: 'grapheme' }), fc.double(), fc.integer(), fc.constant(null), fc.bigInt(), fc.uint8Array());
    const row = fc.dictionary(fc.string({ minLength: 1 }), cell, { minKeys: 1 });
    fc.assert(
      fc.property(row, fc.string({ minLength: 1 }), (r, id) => {
        const stored = { ...r, id };
        expect(encodeLeaf('audit', stored)).toBe(reference('audit', stored));
      }),
      { numRuns: 60 },
    );
  });

  it('hashes a leaf as RFC 9162 does: SHA-256 of 0x00 then the UTF-8 bytes', () => {
    const data = encodeLeaf('movement', movement);
    const expected = createHash('sha256')
      .update(Buffer.from([0]))
      .update(Buffer.from(data, 'utf8'))
      .digest('hex');
    expect(leafHashHex(data)).toBe(expected);
  });
});

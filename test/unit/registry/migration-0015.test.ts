// Migration 0015: the transparency log keeps each leaf's hash only. A version-14 database's leaves
// (bytes and hashes, as migration 0014 backfilled them) keep their indexes, kinds, ids and hashes;
// the bytes, no longer stored, are the rows' encoding, which hashes to what was logged. And that
// encoding (written out directly, for speed) is exactly the canonical JSON of {id, kind, row}.
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '@platform/log-crypto';
import { openSqlite } from '@platform/db/open';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import type { RegistryTables } from '@registry/schema';
import { encodeLeaf, leafHashHex, type LeafKind } from '@registry/transparency/leaf';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { canonicalJson } from '@shared/canonical-json';
import { leafHash } from '@shared/transparency/merkle';
import { makeDataDir } from '@test/support/registry';
import { MINIMAL_LEDGER_OWNERS_SQL } from '@test/support/minimal-ledger';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 0015: leaves keep their hash only', () => {
  it('drops the bytes and keeps every leaf, which the rows still hash to', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 13) });
    db.raw.exec(`
      ${MINIMAL_LEDGER_OWNERS_SQL}
      INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at) VALUES ('c', 'issue', NULL, 'a1', 1000, 5);
      INSERT INTO audit_log (id, at, actor, action, outcome, detail) VALUES ('e0', 6, 'cli:root', 'issueCredits', 'succeeded', '{"é":"ü"}');
      INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at) VALUES ('c', 'deposit', 'a1', 'a2', 400, 7);
    `);
    db.close();
    const at14 = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 14) }).db;
    const before = at14.raw.prepare('SELECT idx, kind, ref, data, hash FROM tlog_leaves ORDER BY idx').all() as {
      idx: number;
      kind: LeafKind;
      ref: string;
      data: string;
      hash: string;
    }[];
    at14.close();
    expect(before).toHaveLength(3);

    const registry = openRegistry({ dataDir: data.dir });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 14, to: registryMigrations.length });
    const columns = (registry.db.raw.prepare(`SELECT name FROM pragma_table_info('tlog_leaves')`).all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toEqual(['idx', 'kind', 'ref', 'hash']);
    const after = registry.db.raw.prepare('SELECT idx, kind, ref, hash FROM tlog_leaves ORDER BY idx').all();
    expect(after).toEqual(before.map(({ data: _bytes, ...leaf }) => leaf));
    for (const leaf of before) {
      const table = leaf.kind === 'movement' ? 'movements' : 'audit_log';
      const row = registry.db.raw.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(leaf.ref) as Record<string, unknown>;
      expect(encodeLeaf(leaf.kind, row)).toBe(leaf.data);
      expect(leafHashHex(encodeLeaf(leaf.kind, row))).toBe(leaf.hash);
    }
    expect(verifyLogDatabase(registry).problems).toEqual([]);
  });

  it('encodes a row exactly as the canonical JSON of {id, kind, row}', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(fc.constantFrom<LeafKind>('movement', 'audit'), fc.dictionary(fc.string(), value), fc.string(), (kind, columns, id) => {
        const row = { ...columns, id, seq: 1 };
        expect(encodeLeaf(kind, row)).toBe(canonicalJson({ id, kind, row }));
      }),
      { numRuns: 300 },
    );
    const bytes = { id: 7, blob: Uint8Array.of(1, 2, 250), big: 2n ** 70n };
    expect(encodeLeaf('movement', bytes)).toBe(
      canonicalJson({ id: '7', kind: 'movement', row: { id: 7, blob: { $base64: 'AQL6' }, big: (2n ** 70n).toString() } }),
    );
  });

  it('hashes a leaf as RFC 9162 does: SHA-256 of 0x00 and its UTF-8 bytes', () => {
    // any text: code points of every UTF-8 length, surrogate halves left out (a row's text has none)
    const codePoint = fc.oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }));
    const text = fc.array(codePoint.map((c) => String.fromCodePoint(c))).map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, (data) => {
        expect(leafHashHex(data)).toBe(Buffer.from(leafHash(new TextEncoder().encode(data), sha256)).toString('hex'));
      }),
      { numRuns: 200 },
    );
  });
});

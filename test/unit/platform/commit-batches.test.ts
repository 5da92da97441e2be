// A statement sent with COMMIT on PostgreSQL has its values written into its text: each `$n` becomes
// its value's literal, and nothing that merely looks like a placeholder is touched.
import { describe, expect, it } from 'vitest';
import { inlineParameters } from '@platform/db/commit-batches';

// stands in for libpq's PQescapeLiteral (standard_conforming_strings on)
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

describe('inlineParameters', () => {
  it('writes text quoted and exact integers in decimal, $10 apart from $1', () => {
    const values = ['a', 2, 3, 4, 5, 6, 7, 8, 9, "it's"];
    expect(inlineParameters('SELECT $1::jsonb, $2 + $10, $9', values, quote)).toBe(`SELECT 'a'::jsonb, 2 + 'it''s', 9`);
  });

  it('leaves strings, quoted names, comments and identifiers with $ alone', () => {
    const sql = `SELECT '$1', "a$1", x$1, y -- $1\nFROM t WHERE z = $1`;
    expect(inlineParameters(sql, [7], quote)).toBe(`SELECT '$1', "a$1", x$1, y -- $1\nFROM t WHERE z = 7`);
  });

  it('refuses a value it cannot write exactly', () => {
    for (const value of [1.5, 2 ** 53, null, undefined, true, 10n])
      expect(() => inlineParameters('SELECT $1', [value], quote)).toThrow('neither text nor an exact integer');
  });
});

// The PostgreSQL engine takes the registry's SQL as written for SQLite: its placeholders are numbered.
import { describe, expect, it } from 'vitest';
import { numberPlaceholders, redactUrl } from '@platform/db/postgres';

describe('numberPlaceholders', () => {
  it('numbers positional ? in order', () => {
    expect(numberPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (SELECT value FROM json_each(?)) LIMIT ?')).toEqual({
      text: 'SELECT a FROM t WHERE b = $1 AND c IN (SELECT value FROM json_each($2)) LIMIT $3',
      names: [],
      count: 3,
    });
  });

  it('gives each distinct @name one number, however often it is used', () => {
    expect(numberPlaceholders('WHERE o = @org AND (s = 1 OR r > @now) AND x < @now')).toEqual({
      text: 'WHERE o = $1 AND (s = 1 OR r > $2) AND x < $2',
      names: ['org', 'now'],
      count: 2,
    });
  });

  it('leaves strings, quoted names, comments and casts alone', () => {
    const sql = `SELECT '?', '@x', "a?b", x::text -- what? @y\nFROM t WHERE y = ?`;
    expect(numberPlaceholders(sql).text).toBe(`SELECT '?', '@x', "a?b", x::text -- what? @y\nFROM t WHERE y = $1`);
  });
});

describe('redactUrl', () => {
  it('hides a password, keeps the rest', () => {
    expect(redactUrl('postgres://reg:s3cret@db.example:5432/registry')).toBe('postgres://reg:***@db.example:5432/registry');
    expect(redactUrl('postgres://reg@db/registry')).toBe('postgres://reg@db/registry');
  });
});

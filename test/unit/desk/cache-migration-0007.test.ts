// Cache migration 0007: the log key a person reviewed gets a table of its own (one row), added to an
// existing cache with its verification state kept; a pin says why it was made, and may be "no log".
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '@platform/db/migrate';
import { cacheMigrations } from '@desk/cache/migrations';

describe('cache migration 0007 (the reviewed log key)', () => {
  it('adds hv_pin to a version-6 cache, keeping its verification state; one row, a known reason', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, cacheMigrations.slice(0, 6));
    db.prepare("INSERT INTO hv_state (one, outcome, checked_at, verifier_key) VALUES (1, 'verified', 1, 'k+1+A')").run();
    migrate(db, cacheMigrations.slice(0, 7));
    expect(db.prepare('SELECT verifier_key FROM hv_state').pluck().get()).toBe('k+1+A');

    const pin = db.prepare('INSERT INTO hv_pin (one, verifier_key, pinned_at, reason) VALUES (?, ?, 1, ?)');
    pin.run(1, null, 'added');
    expect(() => pin.run(1, 'k+1+A', 'added')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => pin.run(2, 'k+1+A', 'added')).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE hv_pin SET reason = 'guessed'").run()).toThrow(/CHECK/);
    expect(db.prepare('SELECT verifier_key FROM hv_pin').pluck().get()).toBeNull();
    db.close();
  });
});

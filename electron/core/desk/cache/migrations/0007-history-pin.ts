// The log key a person reviewed for a connection (verification/pin.ts, docs/desk.md "The registry's
// log key"), kept apart from hv_state, which holds only what a check verified: pinned when the
// connection is added or started over, before any sync. verifier_key NULL: the registry published
// no log when the person reviewed it.
import type { Migration } from '@platform/db/migrate';

export const migration0007: Migration = {
  version: 7,
  name: 'history-pin',
  up(db) {
    db.exec(`
      CREATE TABLE hv_pin (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        verifier_key TEXT,
        pinned_at INTEGER NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('added', 'started_over'))
      );
    `);
  },
};

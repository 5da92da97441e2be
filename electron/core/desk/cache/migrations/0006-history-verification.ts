// What the desk keeps to verify its registry's history at every sync (verification/, docs/desk.md):
// - hv_state: one row, the connection's log state: the pinned note verifier key, the last verified
//   checkpoint (its note, size, root) with the tree's right frontier (log2 n hashes: the next sync
//   hashes only the new leaves), and the outcome of the last check;
// - hv_movements: the verified leaves' ledger movements, as the log holds them, so the retirements
//   and movements a sync brings are matched against their leaf's content, not only their id;
// - hv_evidence: each failed check with what proves it (both checkpoints, the proof or leaves),
//   never deleted by a sync.
import type { Migration } from '@platform/db/migrate';

export const migration0006: Migration = {
  version: 6,
  name: 'history-verification',
  up(db) {
    db.exec(`
      CREATE TABLE hv_state (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        outcome TEXT NOT NULL CHECK (outcome IN ('verified', 'unverifiable', 'failed')),
        message TEXT,
        checked_at INTEGER NOT NULL,
        verifier_key TEXT,
        size INTEGER,
        root TEXT,
        frontier TEXT,
        checkpoint TEXT,
        signed_at INTEGER,
        verified_at INTEGER,
        pending INTEGER NOT NULL DEFAULT 0
      );

      CREATE TABLE hv_movements (
        id INTEGER PRIMARY KEY,
        leaf INTEGER NOT NULL UNIQUE,
        credit_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        from_account TEXT,
        to_account TEXT,
        amount INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        reference TEXT
      );
      CREATE INDEX hv_movements_reference ON hv_movements (reference) WHERE reference IS NOT NULL;

      CREATE TABLE hv_evidence (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        found_at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        kept_checkpoint TEXT,
        latest_checkpoint TEXT,
        proof TEXT
      );
    `);
  },
};

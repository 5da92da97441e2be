// The reserve hot path sums what live reservations hold of one credit (holds.ts). With the amount in
// the partial index, that sum reads the index alone instead of one table row per live reservation,
// which matters when thousands of reservations are live on one credit.
import type { Migration } from '@platform/db/migrate';

export const migration0003: Migration = {
  version: 3,
  name: 'covering-holds-index',
  up(db) {
    db.exec(`
      DROP INDEX reservations_holding;
      CREATE INDEX reservations_holding ON reservations (organization_id, credit_id, state, reserved_to, amount)
        WHERE state IN ('pending', 'pending_queue');
    `);
  },
};

// One process reserving as fast as it can straight against the registry on PostgreSQL (no HTTP), for
// the bench's comparison of two ways to keep availability exact across processes:
//   node --import tsx bench/support/pg-reserver.ts <url> <serializable|rows> <app> <org:credit,…> <ms> [start]
//   - serializable: reserveCredits as the registry runs it (a SERIALIZABLE transaction, run again
//     after a serialization failure, up to MAX_TRANSACTION_ATTEMPTS times);
//   - rows: the same check and insert in a READ COMMITTED transaction that first locks the credit's
//     warehouse balance row (SELECT … FOR UPDATE), so reservations of one credit queue on that lock
//     instead of failing at commit and running again (run again only after a deadlock).
// It reserves 0.001 t for each org:credit pair in turn (from the pair numbered [start]), prints
// {"ready": true}, waits for one line on stdin (so that all processes start together), runs for <ms>
// and prints {"made": n, "retries": n, "gaveUp": n} (transactions run again; reservations that still
// failed to serialize after every attempt, which a client would have seen fail).
import { createInterface } from 'node:readline';
import { openPostgresRegistry } from '../../electron/core/registry/open';
import { availableInWarehouse } from '../../electron/core/registry/warehouse/inventory';
import { RESERVATION_LIFETIME_MS } from '../../electron/core/registry/warehouse/lifecycle';
import { reserveCredits } from '../../electron/core/registry/warehouse/reservations';

const [url, mode, appId, pairList, ms, start] = process.argv.slice(2);
if (!url || (mode !== 'serializable' && mode !== 'rows') || !appId || !pairList || !ms) {
  process.stderr.write('usage: pg-reserver.ts <url> <serializable|rows> <app> <org:credit,…> <ms> [start]\n');
  process.exit(2);
}
const pairs = pairList.split(',').map((pair) => pair.split(':') as [string, string]);
const registry = openPostgresRegistry({ databaseUrl: url });
const db = registry.db;
const AMOUNT = 1000; // grams: 0.001 t, as the HTTP bench reserves

function reserveWithRowLock(organizationId: string, creditId: string): void {
  for (;;) {
    db.exec('BEGIN ISOLATION LEVEL READ COMMITTED');
    try {
      if (!db.prepare('SELECT id FROM credits WHERE id = ?').get(creditId)) throw new Error(`no credit ${creditId}`);
      db.prepare(
        `SELECT b.amount FROM balances b JOIN accounts a ON a.id = b.account_id
         WHERE a.kind = 'warehouse' AND a.organization_id = ? AND b.credit_id = ? FOR UPDATE OF b`,
      ).all(organizationId, creditId);
      if (AMOUNT > availableInWarehouse(registry, organizationId, creditId)) throw new Error('not enough credits');
      const now = registry.clock.now();
      db.prepare(
        `INSERT INTO reservations (id, organization_id, credit_id, amount, app_id, created_at, reserved_to, state, is_complete,
           retirement_id, transaction_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, NULL, NULL, ?)`,
      ).run(registry.newId(), organizationId, creditId, AMOUNT, appId, now, now + RESERVATION_LIFETIME_MS, now);
      db.exec('COMMIT');
      return;
    } catch (error) {
      db.exec('ROLLBACK');
      if ((error as { code?: string }).code !== '40P01') throw error; // a deadlock is run again
      db.retries += 1;
    }
  }
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const end = performance.now() + Number(ms);
let made = 0;
let gaveUp = 0;
for (let i = 0; performance.now() < end; i++) {
  const [organizationId, creditId] = pairs[(i + Number(start ?? 0)) % pairs.length]!;
  try {
    if (mode === 'rows') reserveWithRowLock(organizationId, creditId);
    else reserveCredits(registry, { organizationId, appId, creditId, amount: AMOUNT / 1e6 });
    made += 1;
  } catch (error) {
    // still failing to serialize after every attempt: the request would have failed
    if ((error as { code?: string }).code !== '40001') throw error;
    gaveUp += 1;
  }
}
process.stdout.write(`${JSON.stringify({ made, retries: db.retries, gaveUp })}\n`);
registry.close();
setTimeout(() => process.exit(0), 1100).unref();

// One process reserving as fast as it can straight against the registry on PostgreSQL (no HTTP), for
// the bench's comparison of two ways to keep availability exact across processes:
//   node --import tsx bench/support/pg-reserver.ts <url> <serializable|rows> <app> <org:credit,…> <ms> [start]
//   - rows: reserveCredits as the registry runs it (READ COMMITTED; the credit's warehouse balance
//     row locked first, SELECT … FOR UPDATE, so reservations of one credit queue on that lock);
//   - serializable: the same check and insert in a SERIALIZABLE transaction without the lock, run
//     again after a serialization failure (up to MAX_TRANSACTION_ATTEMPTS times), as the registry
//     reserved before this bench measured the two.
// It reserves 0.001 t for each org:credit pair in turn (from the pair numbered [start]), prints
// {"ready": true}, waits for one line on stdin (so that all processes start together), runs for <ms>
// and prints {"made": n, "retries": n, "gaveUp": n} (transactions run again; reservations that still
// failed to serialize after every attempt, which a client would have seen fail).
import { createInterface } from 'node:readline';
import { DatabaseBusyError } from '@platform/db/database';
import { openPostgresRegistry } from '@registry/open';
import { availableInWarehouse } from '@registry/warehouse/inventory';
import { RESERVATION_LIFETIME_MS } from '@registry/warehouse/lifecycle';
import { reserveCredits } from '@registry/warehouse/reservations';

const [url, mode, appId, pairList, ms, start] = process.argv.slice(2);
if (!url || (mode !== 'serializable' && mode !== 'rows') || !appId || !pairList || !ms) {
  process.stderr.write('usage: pg-reserver.ts <url> <serializable|rows> <app> <org:credit,…> <ms> [start]\n');
  process.exit(2);
}
const pairs = pairList.split(',').map((pair) => pair.split(':') as [string, string]);
const registry = openPostgresRegistry({ databaseUrl: url });
const db = registry.db;
const AMOUNT = 1000; // grams: 0.001 t, as the HTTP bench reserves

function reserveSerializable(organizationId: string, creditId: string): void {
  db.transaction(() => {
    if (!db.prepare('SELECT id FROM credits WHERE id = ?').get(creditId)) throw new Error(`no credit ${creditId}`);
    if (AMOUNT > availableInWarehouse(registry, organizationId, creditId)) throw new Error('not enough credits');
    const now = registry.clock.now();
    db.prepare(
      `INSERT INTO reservations (id, organization_id, credit_id, amount, app_id, created_at, reserved_to, state, is_complete,
         retirement_id, transaction_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, NULL, NULL, ?)`,
    ).run(registry.newId(), organizationId, creditId, AMOUNT, appId, now, now + RESERVATION_LIFETIME_MS, now);
  });
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const end = performance.now() + Number(ms);
let made = 0;
let gaveUp = 0;
for (let i = 0; performance.now() < end; i++) {
  const [organizationId, creditId] = pairs[(i + Number(start ?? 0)) % pairs.length]!;
  try {
    if (mode === 'rows') reserveCredits(registry, { organizationId, appId, creditId, amount: AMOUNT / 1e6 });
    else reserveSerializable(organizationId, creditId);
    made += 1;
  } catch (error) {
    // still failing to serialize after every attempt: the request would have failed
    // (the database layer names that DatabaseBusyError once its attempts are spent)
    if (!(error instanceof DatabaseBusyError) && (error as { code?: string }).code !== '40001') throw error;
    gaveUp += 1;
  }
}
process.stdout.write(`${JSON.stringify({ made, retries: db.retries, gaveUp })}\n`);
registry.close();
setTimeout(() => process.exit(0), 1100).unref();

// A worker that dies holding a claim, for the several-processes test: `node --import tsx
// test/support/claim-and-hang.ts '<json>'` with {url, organizationId, receiverId, reservationIds}.
// It finishes the reservations one by one (each committed, queued like any finish) and, right after
// each, tries to claim that transaction as the worker does (FOR UPDATE SKIP LOCKED); a server's
// worker may take it first (their polls run every 250 ms), so it goes on until one claim holds. Then
// it prints {"claimed": transactionId} and hangs inside the open transaction until it is killed.
import { openPostgresRegistry } from '@registry/open';
import { finishReservation } from '@registry/warehouse/finish';

const { url, organizationId, receiverId, reservationIds } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  organizationId: string;
  receiverId: string;
  reservationIds: string[];
};
const registry = openPostgresRegistry({ databaseUrl: url });
const forever = new Int32Array(new SharedArrayBuffer(4));

for (const reservationId of reservationIds) {
  const { transactionId } = finishReservation(registry, { organizationId, reservationId, action: 'transfer', body: { receiverId } });
  registry.db.transaction(() => {
    const claimed = registry.db
      .prepare(`SELECT id FROM transactions WHERE id = ? AND state = 'pending_queue'${registry.db.claimRows}`)
      .get(transactionId);
    if (!claimed) return;
    // (writes to a pipe are synchronous on Linux: the line is out before the hang)
    process.stdout.write(`${JSON.stringify({ claimed: transactionId })}\n`);
    Atomics.wait(forever, 0, 0);
  });
}
process.stdout.write(`${JSON.stringify({ claimed: null })}\n`);

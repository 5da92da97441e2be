// A registry server in its own process, for the crash test: `node --import tsx
// test/support/warehouse-server.ts <dataDir>` (or a postgres:// URL: the registry on PostgreSQL, as
// the several-processes tests run it). Prints one JSON line {"url": …} once it listens,
// then {"queueEmpty": true} each time its worker has handled a transaction and none is left queued
// ({"queueLeft": 1} when exactly one is: say, one another worker holds).
// WAREHOUSE_WORKER=off starts it without background services, so finished reservations stay queued.
// RATE_LIMIT=n/seconds starts it with that rate limit (`--rate-limit` of npm run serve).
// GET /__floor__/ping answers a constant without authentication: the floor of the warehouse bench.
import { startRegistryServer } from '@registry/http/server';
import { openPostgresRegistry, openRegistry } from '@registry/open';
import { onTransactionHandled } from '@registry/warehouse/queue-signal';
import { queuedTransactionIds } from '@registry/warehouse/worker';

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: warehouse-server.ts <dataDir | postgres URL>\n');
  process.exit(2);
}
const registry = /^postgres(ql)?:\/\//.test(dataDir) ? openPostgresRegistry({ databaseUrl: dataDir }) : openRegistry({ dataDir });
const rateLimit = /^(\d+)\/(\d+)$/.exec(process.env.RATE_LIMIT ?? '');
const server = await startRegistryServer({
  registry,
  background: process.env.WAREHOUSE_WORKER !== 'off',
  ...(rateLimit ? { rateLimit: { requests: Number(rateLimit[1]), windowMs: Number(rateLimit[2]) * 1000 } } : {}),
  extraRoutes: (app) => app.get('/__floor__/ping', (c) => c.json({ ok: true })),
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
onTransactionHandled(registry, () => {
  const left = queuedTransactionIds(registry, 2).length;
  if (left === 0) process.stdout.write(`${JSON.stringify({ queueEmpty: true })}\n`);
  if (left === 1) process.stdout.write(`${JSON.stringify({ queueLeft: 1 })}\n`);
});

process.on('SIGTERM', () => {
  void server.close().then(() => {
    registry.close();
    process.exit(0);
  });
});

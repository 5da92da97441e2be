// A registry server in its own process for the transparency cost bench: `node --import tsx
// bench/support/tlog-server.ts <dataDir | postgres URL> <with | without>` serves the registry
// there, with or without the log (tlog-registry.ts), its background services on (the warehouse
// worker processes finished reservations; with the log, checkpoints are signed). Prints {"url": …}.
// POST /__bench__/checkpoint signs a checkpoint of the whole log now (with the log; else does
// nothing), so that a timed span can end with every leaf's checkpoint work done.
import { startRegistryServer } from '@registry/http/server';
import { signCheckpoint } from '@registry/transparency/checkpoints';
import { openRegistryAt } from './tlog-registry';

const [target, mode] = process.argv.slice(2);
if (!target || (mode !== 'with' && mode !== 'without')) {
  process.stderr.write('usage: tlog-server.ts <dataDir | postgres URL> <with | without>\n');
  process.exit(2);
}
const registry = openRegistryAt(target, mode === 'with');
// without the log the checkpoint timer only finds no table: keep its complaint out of the bench's output
const server = await startRegistryServer({
  registry,
  background: true,
  log: mode === 'with' ? undefined : () => undefined,
  extraRoutes: (hono) => {
    hono.post('/__bench__/checkpoint', (c) => c.json({ size: mode === 'with' ? signCheckpoint(registry).size : 0 }));
  },
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => {
    registry.close();
    process.exit(0);
  });
});

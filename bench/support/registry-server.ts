// A registry server process for benchmarks: `node --import tsx bench/support/registry-server.ts <dataDir>`.
// It mounts one floor route, GET /__floor__/projects, that sends the very bytes GET /projects?limit=100
// answered at start-up, from memory; and prints one JSON line: { url, token }.
import { openRegistry } from '@registry/open';
import { startRegistryServer } from '@registry/http/server';
import { issueAccessToken } from '@registry/auth/tokens';
import * as ops from '@registry/operations';
import { generateKeyPairSync } from 'node:crypto';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: registry-server.ts <dataDir>');

const registry = openRegistry({ dataDir });
const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const app = ops.createApp(registry, {
  name: `Bench ${process.pid}`,
  publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  examinerRead: true,
});
const { token } = issueAccessToken(registry, { appId: app.id, installationId: null, permissions: {} });

let floorBody: Uint8Array | undefined;
let floorType = 'application/json';
const server = await startRegistryServer({
  registry,
  extraRoutes: (hono) => {
    hono.get('/__floor__/projects', (c) => {
      c.header('content-type', floorType);
      return c.body(floorBody as Uint8Array<ArrayBuffer>);
    });
  },
});
const real = await fetch(`${server.url}/projects?limit=100&page=0`, { headers: { authorization: `Bearer ${token}` } });
if (real.status !== 200) throw new Error(`GET /projects answered ${real.status}`);
floorType = real.headers.get('content-type') ?? floorType;
floorBody = new Uint8Array(await real.arrayBuffer());
process.stdout.write(`${JSON.stringify({ url: server.url, token, bytes: floorBody.byteLength })}\n`);

const stop = async () => {
  await server.close();
  registry.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

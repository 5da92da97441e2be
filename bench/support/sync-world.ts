// What a desk's first sync is measured against, shared by the sync and network benches: a copy of
// the seeded demo registry at a scale, served on loopback; an app with its key (examiner read),
// installed in one verified organization with warehouse write; the built sync worker and bench
// child (support/sync-bench-child.ts); and a scratch folder for the desks' caches.
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import type { OpenedRegistry } from '@registry/open';
import type { ChildJob, ChildResult } from './sync-bench-job';
import { buildBenchChild, buildSyncWorker } from './sync-bench-process';

export interface SyncWorld {
  registry: OpenedRegistry;
  /** The registry's SQLite file (a bench may write to it as the back office would). */
  registryFile: string;
  /** The registry server's URL on loopback. */
  url: string;
  /** The bench child (sync-bench-child.ts bundled for Node): pass it to `runChildOf`. */
  childFile: string;
  /** A fresh cache file in the scratch folder, named `name`. */
  cacheFile(name: string): string;
  /** A job for a desk of this world: its registry (`url` by default), app, key, installation and worker. */
  job(mode: ChildJob['mode'], cacheFile: string): ChildJob;
  close(): Promise<void>;
}

/** A child's result, or the error it reported (named by `what`). */
export function must(result: ChildResult, what: string): ChildResult {
  if (!result.ok) throw new Error(`${what} failed: ${result.error}`);
  return result;
}

/** Builds the worker and the bench child, copies and serves the `scale` registry, and sets up the app (`name`). */
export async function startSyncWorld(scale: number, name: string): Promise<SyncWorld> {
  const { scaledRegistryCopy } = await import('./scaled-registry');
  const { openRegistry, REGISTRY_DB_FILE } = await import('@registry/open');
  const { startRegistryServer } = await import('@registry/http/server');
  const { signCheckpoint } = await import('@registry/transparency/checkpoints');
  const ops = await import('@registry/operations');
  const { makeDataDir } = await import('@test/support/registry');

  // The sync child runs the engine in its worker thread from the built script, as the app does.
  const workerFile = buildSyncWorker();
  const childFile = await buildBenchChild();
  const copy = await scaledRegistryCopy(scale);
  const registry = openRegistry({ dataDir: copy.dir });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = ops.createApp(registry, {
    name: `${name} ${process.pid}`,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    examinerRead: true,
  });
  const org = registry.db.prepare('SELECT id, full_name FROM organizations WHERE is_verified = 1 ORDER BY id LIMIT 1').get() as {
    id: string;
    full_name: string;
  };
  const permissions = { organization_warehouse: 'WRITE' } as const;
  const installation = ops.installApp(registry, { appId: app.id, organizationId: org.id, permissions });
  // A served registry signs a checkpoint as it starts (its checkpoint timer runs at once), which
  // reads the whole log into its tree; without the timer here, that is done now, or the first
  // run to ask for a checkpoint (a floor) would pay for it.
  signCheckpoint(registry);
  const server = await startRegistryServer({ registry, background: false });
  const work = makeDataDir(`${name.toLowerCase().replace(/\W+/g, '-')}-`);
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    registry,
    registryFile: join(copy.dir, REGISTRY_DB_FILE),
    url: server.url,
    childFile,
    cacheFile: (file) => join(work.dir, file),
    job: (mode, cacheFile) => ({
      mode,
      url: server.url,
      appId: app.id,
      privateKeyPem,
      cacheFile,
      workerFile,
      installations: [{ id: installation.id, organizationId: org.id, organizationName: org.full_name, permissions }],
    }),
    async close() {
      await server.close();
      registry.close();
      copy.remove();
      // SYNC_BENCH_KEEP=1 leaves the desk caches for a look with sqlite3 (the path is printed)
      if (process.env.SYNC_BENCH_KEEP) console.log(`desk caches kept in ${work.dir}`);
      else work.remove();
    },
  };
}

// The embedded registry: a full registry in <dataDir>/embedded-registry, seeded with demo data on
// first start and served on 127.0.0.1 (port chosen by the OS), so the desk talks to it through
// the same HTTP client as to a remote registry (but for certificates) and its background worker
// (transfers, expiry) runs as it would in production. Its certificates are rendered in a pool of
// worker threads (certificates/pool.ts), one per core, so a bulk export uses them all. The desk
// asks it for certificates in-process (`certificate`, the same bytes as its HTTP answer): over
// loopback HTTP, a bulk export cost the desk service more CPU per certificate than in-process
// (bench/README.md, certificates).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  createCertificatePool,
  type CertificatePoolOptions,
  startRegistryServer,
  type RunningRegistryServer,
  openRegistry,
  type OpenedRegistry,
  certificateInputFor,
} from '../registry';
import type { Clock } from '../platform/clock';
import { zodMessages } from '../platform/zod-messages';

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

/** What the demo seed writes beside the registry database (electron/core/registry/seed). */
export const demoCredentialsSchema = z.object({
  app: z.object({ id: z.string().min(1), name: z.string(), privateKeyPem: z.string().min(100) }),
  installations: z.array(z.object({ id: z.string(), organizationId: z.string(), permissions: z.record(z.string(), z.string()) })),
  wallets: z.array(z.unknown()).default([]),
});
export type DemoCredentials = z.infer<typeof demoCredentialsSchema>;

/** Seeds an empty registry with demo data and writes demo-credentials.json into `dataDir`. */
export type DemoSeeder = (registry: OpenedRegistry, options: { scale: number; dataDir: string }) => void | Promise<void>;

export interface EmbeddedRegistry {
  url: string;
  credentials: DemoCredentials;
  registry: OpenedRegistry;
  /**
   * A claimed retirement's certificate PDF, rendered by the pool as `GET /retirements/{id}/pdf`
   * renders it (the same bytes). Unknown → RegistryError not_found, unclaimed → conflict; once
   * stopped, EmbeddedRegistryStopped.
   */
  certificate(retirementId: string): Promise<Uint8Array>;
  /** Stops the server (and its worker) and closes the database. */
  stop(): Promise<void>;
}

/** The embedded registry was stopped: it answers nothing more, as a server that went away. */
export class EmbeddedRegistryStopped extends Error {
  constructor() {
    super('the embedded registry is stopped');
  }
}

export function readDemoCredentials(dataDir: string): DemoCredentials {
  const path = join(dataDir, DEMO_CREDENTIALS_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const parsed = demoCredentialsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} is not valid demo credentials: ${zodMessages(parsed.error.issues).join('; ')}`);
  return parsed.data;
}

export async function startEmbeddedRegistry(options: {
  dataDir: string;
  clock: Clock;
  seed: DemoSeeder;
  scale?: number;
  log?: (line: string) => void;
  /** The certificate worker pool's size (default: the cores) and built worker script. */
  certificateWorkers?: Omit<CertificatePoolOptions, 'resourcesDir'>;
}): Promise<EmbeddedRegistry> {
  const registry = openRegistry({ dataDir: options.dataDir, clock: options.clock });
  const pool = createCertificatePool(options.certificateWorkers);
  let server: RunningRegistryServer | undefined;
  try {
    if (!existsSync(join(options.dataDir, DEMO_CREDENTIALS_FILE))) {
      options.log?.('seeding the embedded registry with demo data (first start)');
      await options.seed(registry, { scale: options.scale ?? 1, dataDir: options.dataDir });
    }
    const credentials = readDemoCredentials(options.dataDir);
    server = await startRegistryServer({
      registry,
      host: '127.0.0.1',
      port: 0,
      renderCertificate: pool.render,
      ...(options.log ? { log: options.log } : {}),
    });
    const running = server;
    let stopped = false;
    return {
      url: running.url,
      credentials,
      registry,
      async certificate(retirementId) {
        if (stopped) throw new EmbeddedRegistryStopped();
        return pool.render(certificateInputFor(registry, retirementId));
      },
      async stop() {
        stopped = true;
        await running.close();
        await pool.close();
        registry.close();
      },
    };
  } catch (error) {
    await server?.close();
    await pool.close();
    registry.close();
    throw error;
  }
}

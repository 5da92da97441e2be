// Runs the registry as an HTTP server on a loopback (or given) address: the headless registry of
// `npm run serve`, the embedded registry of the desk, and every HTTP test.
import { serve, type ServerType } from '@hono/node-server';
import type { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { createRegistryApp } from './app';
import { answerClientErrorsInShape } from './client-errors';
import { DEFAULT_CONNECTION_LIMITS, limitedServer, serverOptionsFor, type ConnectionLimits } from './connection-limits';
import { trustedProxies } from './client-address';
import { createHandlers, handlers } from './handlers';
import type { CertificateRenderer } from '../certificates/pool';
import { serveOpenApi } from './openapi';
import { mountHealth } from './health';
import { createAuthenticator, type RateLimitOptions } from '../auth/authenticator';
import { tokenHousekeeping } from '../auth/tokens';
import { idempotencyHousekeeping } from '../idempotency-housekeeping';
import type { RegistryContext } from '../context';
import { startBackgroundServices, type BackgroundService, type BackgroundServices } from '../background';
import { warehouseTransactionWorker } from '../warehouse/worker';
import { checkpointService } from '../transparency/checkpoints';
import { mountTransparency } from './transparency';

/** What a serving registry runs beside its routes, in start order. */
export const BACKGROUND_SERVICES: readonly BackgroundService[] = [
  tokenHousekeeping,
  idempotencyHousekeeping,
  warehouseTransactionWorker,
  checkpointService,
];

export interface RegistryServerOptions {
  registry: RegistryContext;
  port?: number;
  host?: string;
  /** Per-token rate limit; off when omitted. */
  rateLimit?: RateLimitOptions;
  /** Largest request body in bytes (default 1 MB, `--max-body`); larger is 413. */
  maxBodyBytes?: number;
  /** Refused operator requests allowed per operator (default 60 a minute); past it 429. */
  refusedAttempts?: RateLimitOptions;
  /** Load balancers whose X-Forwarded-For names the client (`--trusted-proxy`); exempt from the per-address connection cap. */
  trustedProxies?: readonly string[];
  /** Connections per address and the request deadlines (DEFAULT_CONNECTION_LIMITS for any not given). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Extra routes (tests mount a clock control here). */
  extraRoutes?: (app: Hono) => void;
  /** Renders certificate PDFs (a worker pool); default: in the serving thread. */
  renderCertificate?: CertificateRenderer;
  /** Start the transaction worker and housekeeping (default true). */
  background?: boolean;
  log?: (line: string) => void;
  /** Called just before each JWT signature check (a metric hook: tests count the checks with it). */
  onSignatureCheck?: () => void;
  /** How long close() lets requests in flight finish before it cuts their connections (default 10 s). */
  drainMs?: number;
}

export interface RunningRegistryServer {
  url: string;
  port: number;
  app: Hono;
  /**
   * Stops accepting connections (GET /readyz answers 503 from now on), stops the background services
   * (a queue claim in progress commits or rolls back first), lets the requests in flight finish
   * for at most `drainMs`, then closes every connection.
   */
  close(): Promise<void>;
}

export function buildRegistryHttpApp(options: Omit<RegistryServerOptions, 'port' | 'host'> & { isStopping?: () => boolean }): Hono {
  const authenticator = createAuthenticator(options.registry, {
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.onSignatureCheck ? { onSignatureCheck: options.onSignatureCheck } : {}),
  });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return createRegistryApp({
    registry: options.registry,
    handlers: options.renderCertificate ? createHandlers({ renderCertificate: options.renderCertificate }) : handlers,
    authenticator,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.refusedAttempts !== undefined ? { refusedAttempts: options.refusedAttempts } : {}),
    ...(options.trustedProxies !== undefined ? { trustedProxies: options.trustedProxies } : {}),
    ...(options.connectionLimits?.bodyIdleMs !== undefined ? { bodyIdleMs: options.connectionLimits.bodyIdleMs } : {}),
    extraRoutes: (app) => {
      mountHealth(app, options.registry, options.isStopping);
      serveOpenApi(app);
      mountTransparency(app, options.registry);
      options.extraRoutes?.(app);
    },
    onInternalError: (error, where) => {
      // Never log request headers or bodies here: they may carry tokens.
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`internal error in ${where}: ${message}`);
    },
    onClientAborted: (where) => log(`client went away mid-upload in ${where}`),
    onDiskFull: (full) =>
      log(
        full
          ? 'the database or disk is full: writes answer 507 until space is freed (reads keep working)'
          : 'writes succeed again: the disk is no longer full',
      ),
  });
}

export async function startRegistryServer(options: RegistryServerOptions): Promise<RunningRegistryServer> {
  let stopping = false;
  const app = buildRegistryHttpApp({ ...options, isStopping: () => stopping });
  const host = options.host ?? '127.0.0.1';
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: options.port ?? 0,
        hostname: host,
        serverOptions: serverOptionsFor(limits, options.registry.db.longestHoldMs),
        createServer: limitedServer(limits, trustedProxies(options.trustedProxies ?? [])) as typeof createServer,
        // The rest of a body answered before it was read (a refused caller, a 503 while the database
        // is away) is left to Node, which reads and drops it as it comes, under the request deadline
        // (connection-limits.ts). The adapter's own clean-up gives it 500 ms, then closes the
        // connection without a word: a client slower than that, or a process busy for that long,
        // lost the connection and the next request it had sent on it.
        autoCleanupIncoming: false,
      },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  answerClientErrorsInShape(server as Server);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (options.registry.urls.apiBaseUrl === 'http://127.0.0.1' || options.registry.urls.apiBaseUrl === '') {
    options.registry.urls.apiBaseUrl = url;
  }
  const background: BackgroundServices | undefined =
    options.background === false
      ? undefined
      : startBackgroundServices(options.registry, BACKGROUND_SERVICES, options.log ? { log: options.log } : {});
  return {
    url,
    port,
    app,
    async close() {
      stopping = true;
      const http = server as Server;
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      await background?.stop();
      // idle keep-alive connections would hold close() open; busy ones close once their answer is out
      const idle = setInterval(() => http.closeIdleConnections(), 50);
      http.closeIdleConnections();
      const deadline = setTimeout(() => http.closeAllConnections(), options.drainMs ?? 10_000);
      await closed;
      clearInterval(idle);
      clearTimeout(deadline);
    },
  };
}

// Runs the registry as an HTTP server on a loopback (or given) address: the headless registry of
// `npm run serve`, the embedded registry of the desk, and every HTTP test.
import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { createRegistryApp } from './app';
import { answerClientErrorsInShape } from './client-errors';
import { createHandlers, handlers } from './handlers';
import type { CertificateRenderer } from '../certificates/pool';
import { serveOpenApi } from './openapi';
import { createAuthenticator, type RateLimitOptions } from '../auth/authenticator';
import { tokenHousekeeping } from '../auth/tokens';
import type { RegistryContext } from '../context';
import { startBackgroundServices, type BackgroundService, type BackgroundServices } from '../background';
import { warehouseTransactionWorker } from '../warehouse/worker';

/** What a serving registry runs beside its routes, in start order. */
const BACKGROUND_SERVICES: readonly BackgroundService[] = [tokenHousekeeping, warehouseTransactionWorker];

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
  /** Load balancers whose X-Forwarded-For names the client (`--trusted-proxy`). */
  trustedProxies?: readonly string[];
  /** Extra routes (tests mount a clock control here). */
  extraRoutes?: (app: Hono) => void;
  /** Renders certificate PDFs (a worker pool); default: in the serving thread. */
  renderCertificate?: CertificateRenderer;
  /** Start the transaction worker and housekeeping (default true). */
  background?: boolean;
  log?: (line: string) => void;
}

export interface RunningRegistryServer {
  url: string;
  port: number;
  app: Hono;
  close(): Promise<void>;
}

export function buildRegistryHttpApp(options: Omit<RegistryServerOptions, 'port' | 'host'>): Hono {
  const authenticator = createAuthenticator(options.registry, options.rateLimit ? { rateLimit: options.rateLimit } : {});
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return createRegistryApp({
    registry: options.registry,
    handlers: options.renderCertificate ? createHandlers({ renderCertificate: options.renderCertificate }) : handlers,
    authenticator,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.refusedAttempts !== undefined ? { refusedAttempts: options.refusedAttempts } : {}),
    ...(options.trustedProxies !== undefined ? { trustedProxies: options.trustedProxies } : {}),
    extraRoutes: (app) => {
      serveOpenApi(app);
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
  const app = buildRegistryHttpApp(options);
  const host = options.host ?? '127.0.0.1';
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  answerClientErrorsInShape(server as Server);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (options.registry.urls.apiBaseUrl === 'http://127.0.0.1' || options.registry.urls.apiBaseUrl === '') {
    options.registry.urls.apiBaseUrl = url;
  }
  const background: BackgroundServices | undefined =
    options.background === false ? undefined : startBackgroundServices(options.registry, BACKGROUND_SERVICES);
  return {
    url,
    port,
    app,
    async close() {
      await background?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // keep-alive connections would hold close() open
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

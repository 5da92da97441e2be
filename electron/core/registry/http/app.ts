// The registry's HTTP interface, built from the shared endpoint table: one route per endpoint, each
// running the same pipeline (version header, authentication and permission, validation of params,
// query and body, handler), and every error answered with the JSON body of compatibility.md.
// Here: the middlewares every request passes and the routes' order; one route's pipeline is in
// endpoint-route.ts, the answers to errors (and to no route) in error-answers.ts.
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { endpointIds, endpoints, type EndpointDefinition } from '@shared/registry/endpoints';
import { API_VERSION_HEADER } from '@shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import type { Authenticator } from '../auth/caller';
import { RateLimiter, type RateLimitOptions } from '../auth/rate-limit';
import { bodyCap, DEFAULT_BODY_IDLE_MS, DEFAULT_MAX_BODY_BYTES } from './body';
import { compressAnswers } from './compression';
import { clientAddress, peerAddressOf, trustedProxies } from './client-address';
import { DISK_FULL_MESSAGE, diskFullEpisodes } from './disk-full';
import { endpointRoute } from './endpoint-route';
import { answerError, answerNoRoute } from './error-answers';
import { errorBody, IDEMPOTENCY_KEY_HEADER } from './pipeline-parts';
import { honoPath, routeOrder } from './route-paths';
import type { Handlers } from './types';
import { versionHeaderCheck } from './version-header';

/** Refused operator requests allowed per operator (and refused token requests per address), per minute. */
export const DEFAULT_REFUSED_ATTEMPTS: RateLimitOptions = { requests: 60, windowMs: 60_000 };

export interface RegistryAppOptions {
  registry: RegistryContext;
  handlers: Handlers;
  authenticator: Authenticator;
  /** Extra routes mounted before the contract's (e.g. /openapi.json). */
  extraRoutes?: (app: Hono) => void;
  /** Called with every unexpected error (a 500); never with request secrets. */
  onInternalError?: (error: unknown, where: string) => void;
  /** Called once per request whose client went away mid-upload (one line, no stack). */
  onClientAborted?: (where: string) => void;
  /** Called when writes start failing for a full disk, and again when one succeeds (once per episode). */
  onDiskFull?: (full: boolean) => void;
  /** Largest request body in bytes (default 1 MB); larger is 413. */
  maxBodyBytes?: number;
  /** The budget of refused operator requests (default DEFAULT_REFUSED_ATTEMPTS). */
  refusedAttempts?: RateLimitOptions;
  /** Proxies whose X-Forwarded-For names the client (client-address.ts); none by default. */
  trustedProxies?: readonly string[];
  /** Longest pause while a request body arrives (default 10 s); then 408. */
  bodyIdleMs?: number;
}

export { DISK_FULL_MESSAGE, errorBody, IDEMPOTENCY_KEY_HEADER };

export function createRegistryApp(options: RegistryAppOptions): Hono {
  const { registry, handlers, authenticator } = options;
  const pipeline = {
    registry,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    bodyIdleMs: options.bodyIdleMs ?? DEFAULT_BODY_IDLE_MS,
    refusals: new RateLimiter(options.refusedAttempts ?? DEFAULT_REFUSED_ATTEMPTS, () => registry.clock.now()),
  };
  const trusted = trustedProxies(options.trustedProxies ?? []);
  const clientAddressOf = (c: Context) => clientAddress(peerAddressOf(c), c.req.header('x-forwarded-for'), trusted);
  const diskFull = diskFullEpisodes(options.onDiskFull);
  const app = new Hono();

  // First, so it sees every answer last (errors and extra routes included).
  app.use('*', compressAnswers());

  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', API_VERSION_HEADER, IDEMPOTENCY_KEY_HEADER],
      exposeHeaders: ['Content-Disposition', 'Retry-After', 'Idempotent-Replayed'],
      maxAge: 600,
    }),
  );

  app.use('*', bodyCap(pipeline.maxBodyBytes));
  app.use('*', diskFull.middleware);

  // The Date header is the registry's own clock (clients count reservations down on it, see the
  // desk's clock offset), so a registry whose clock was moved (--test-clock) says so too.
  app.use('*', async (c, next) => {
    await next();
    c.header('date', new Date(registry.clock.now()).toUTCString());
  });

  app.use('*', versionHeaderCheck());

  options.extraRoutes?.(app);

  const deps = { pipeline, handlers, authenticator, clientAddressOf };
  const ordered = endpointIds.map((id) => [id, endpoints[id] as EndpointDefinition] as const).sort((a, b) => routeOrder(a[1], b[1]));
  for (const [id, endpoint] of ordered) app.on(endpoint.method, honoPath(endpoint.path), endpointRoute(deps, id, endpoint));

  app.notFound(answerNoRoute);
  app.onError((error, c) =>
    answerError(error, c, {
      diskFull: diskFull.failed,
      onClientAborted: options.onClientAborted,
      onInternalError: options.onInternalError,
    }),
  );

  return app;
}

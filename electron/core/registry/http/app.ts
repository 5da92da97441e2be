// The registry's HTTP interface, built from the shared endpoint table: one route per endpoint, each
// running the same pipeline (version header, authentication and permission, validation of params,
// query and body, handler), and every error answered with the JSON body of compatibility.md.
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { endpointIds, endpoints, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { API_VERSION, API_VERSION_HEADER } from '@shared/registry/vocabulary';
import { RegistryError } from '../errors';
import type { RegistryContext } from '../context';
import type { Authenticator, Caller } from '../auth/caller';
import { RateLimiter, type RateLimitOptions } from '../auth/rate-limit';
import { DatabaseBusyError, DatabaseUnavailableError } from '@platform/db/database';
import { AnswerAlreadyStored } from '../idempotency';
import { bodyCap, ClientAbortedError, DEFAULT_BODY_IDLE_MS, DEFAULT_MAX_BODY_BYTES, readBodyText } from './body';
import { compressAnswers } from './compression';
import { clientAddress, peerAddressOf, trustedProxies } from './client-address';
import { DISK_FULL_MESSAGE, isDiskFull } from './disk-full';
import { parseJsonText } from './json-body';
import { operatorRequest, recordTokenRefusal } from './operator-pipeline';
import {
  checkRole,
  errorBody,
  errorResponse,
  IDEMPOTENCY_KEY_HEADER,
  messageOf,
  parseOrThrow,
  parseParamsOrQuery,
  querySchemaOf,
} from './pipeline-parts';
import { respond } from './respond';
import { honoPath, pathPattern, routeOrder } from './route-paths';
import type { Handler, Handlers } from './types';
import { headerCount } from './version-header';

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

async function readJsonBody(c: Context, maxBytes: number, idleMs: number): Promise<unknown> {
  return parseJsonText(await readBodyText(c, maxBytes, idleMs));
}

export { DISK_FULL_MESSAGE, errorBody, IDEMPOTENCY_KEY_HEADER };

export function createRegistryApp(options: RegistryAppOptions): Hono {
  const { registry, handlers, authenticator } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyIdleMs = options.bodyIdleMs ?? DEFAULT_BODY_IDLE_MS;
  const operatorPipeline = {
    registry,
    maxBodyBytes,
    bodyIdleMs,
    refusals: new RateLimiter(options.refusedAttempts ?? DEFAULT_REFUSED_ATTEMPTS, () => registry.clock.now()),
  };
  const trusted = trustedProxies(options.trustedProxies ?? []);
  const clientAddressOf = (c: Context) => clientAddress(peerAddressOf(c), c.req.header('x-forwarded-for'), trusted);
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

  app.use('*', bodyCap(maxBodyBytes));

  // A full disk is one episode for the operator: logged when the first write fails, and again when a
  // write succeeds afterwards, never once per request.
  let diskFull = false;
  const setDiskFull = (full: boolean) => {
    if (diskFull === full) return;
    diskFull = full;
    options.onDiskFull?.(full);
  };
  app.use('*', async (c, next) => {
    await next();
    if (diskFull && c.req.method !== 'GET' && c.req.method !== 'OPTIONS' && c.res.status < 400) setDiskFull(false);
  });

  // The Date header is the registry's own clock (clients count reservations down on it, see the
  // desk's clock offset), so a registry whose clock was moved (--test-clock) says so too.
  app.use('*', async (c, next) => {
    await next();
    c.header('date', new Date(registry.clock.now()).toUTCString());
  });

  // The version header is optional; when present it must name the one supported version.
  // Given twice (even with the same value) it is refused: a client sending it twice is confused about it.
  app.use('*', async (c, next) => {
    const version = c.req.header(API_VERSION_HEADER);
    if (headerCount(c, API_VERSION_HEADER) > 1 || version?.includes(',')) {
      return errorResponse(c, 400, `${API_VERSION_HEADER} is given more than once; send it once (${API_VERSION})`);
    }
    if (version !== undefined && version.trim() !== API_VERSION) {
      return errorResponse(c, 400, `Unsupported ${API_VERSION_HEADER} "${version}"; the supported version is ${API_VERSION}`);
    }
    await next();
  });

  options.extraRoutes?.(app);

  const ordered = endpointIds.map((id) => [id, endpoints[id] as EndpointDefinition] as const).sort((a, b) => routeOrder(a[1], b[1]));
  for (const [id, endpoint] of ordered) {
    app.on(endpoint.method, honoPath(endpoint.path), async (c) => {
      const pathParams = c.req.param() as Record<string, string>;
      const authorization = c.req.header('authorization');
      let caller: Caller;
      try {
        caller = await authenticator.authenticate({ authorization, endpointId: id, pathParams, clientAddress: clientAddressOf(c) });
      } catch (error) {
        if (id === 'createOperatorToken' && error instanceof RegistryError) {
          recordTokenRefusal(operatorPipeline, authorization, clientAddressOf(c), error);
        }
        throw error;
      }
      const handler = handlers[id] as Handler<EndpointId>;
      if (caller.kind === 'operator') {
        // Every operator request: audited by one rule (operator-pipeline.ts).
        const answer = await operatorRequest(operatorPipeline, c, id, endpoint, caller, pathParams, handler).catch((error: unknown) => {
          // a concurrent request with the same key (on any process) committed first: its answer
          if (error instanceof AnswerAlreadyStored) return { ...error.answer, replayed: true };
          throw error;
        });
        if (answer.replayed) c.header('Idempotent-Replayed', 'true');
        return respond(c, answer.body, answer.status);
      }
      checkRole(endpoint, caller);
      const params = parseParamsOrQuery(endpoint.params, pathParams, 'params');
      const query = parseParamsOrQuery(querySchemaOf(endpoint, params), c.req.query(), 'query');
      const bodySchema =
        endpoint.bodyByParam?.bodies[String((params as Record<string, unknown>)[endpoint.bodyByParam.param])] ?? endpoint.body;
      const rawBody = bodySchema ? await readJsonBody(c, maxBodyBytes, bodyIdleMs) : {};
      const body = bodySchema ? parseOrThrow(bodySchema, rawBody, 'body') : undefined;
      const result = await handler({ params, query, body, caller, registry, rawBody } as Parameters<Handler<EndpointId>>[0]);
      return respond(c, result, endpoint.status ?? 200);
    });
  }

  app.notFound((c) => {
    const path = c.req.path;
    const allowed = endpointIds.filter((id) => pathPattern(endpoints[id].path).test(path)).map((id) => endpoints[id].method);
    if (allowed.length > 0) {
      c.header('Allow', [...new Set([...allowed, 'OPTIONS'])].join(', '));
      return errorResponse(c, 405, `Cannot ${c.req.method} ${path}`);
    }
    return errorResponse(c, 404, `Cannot ${c.req.method} ${path}`);
  });

  app.onError((error, c) => {
    if (error instanceof RegistryError) return errorResponse(c, error.status, messageOf(error), error.headers);
    if (isDiskFull(error)) {
      setDiskFull(true);
      return errorResponse(c, 507, DISK_FULL_MESSAGE);
    }
    // Rolled back after colliding with concurrent writes until its retries ran out: nothing changed,
    // so a client may send it again (its own retry policy treats 503 like any 5xx, after Retry-After).
    if (error instanceof DatabaseBusyError) return errorResponse(c, 503, error.message, { 'Retry-After': '1' });
    // The database is unreachable (restarting, connection cut): the engine reconnects by itself, so
    // the same request may be sent again shortly; when the outcome of a COMMIT is unknown the
    // message says so and that only a retry with the same Idempotency-Key is safe.
    if (error instanceof DatabaseUnavailableError) return errorResponse(c, 503, error.message, { 'Retry-After': '1' });
    if (error instanceof ClientAbortedError) {
      // Nobody is left to read the answer; not a bug of ours, so no stack and no 500.
      options.onClientAborted?.(`${c.req.method} ${c.req.path}`);
      return errorResponse(c, 400, 'The request body was cut off before its end', { Connection: 'close' });
    }
    options.onInternalError?.(error, `${c.req.method} ${c.req.path}`);
    return errorResponse(c, 500, 'Internal server error');
  });

  return app;
}

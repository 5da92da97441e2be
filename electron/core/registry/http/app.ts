// The registry's HTTP interface, built from the shared endpoint table: one route per endpoint, each
// running the same pipeline (version header, authentication and permission, validation of params,
// query and body, handler), and every error answered with the JSON body of compatibility.md.
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import { endpointIds, endpoints, type EndpointDefinition, type EndpointId } from '../../../../shared/registry/endpoints';
import { API_VERSION, API_VERSION_HEADER, roleAtLeast } from '../../../../shared/registry/vocabulary';
import { audited, auditRefusal, type AuditedAttempt } from '../audit';
import { forbidden, RegistryError } from '../errors';
import { zodMessages } from '../../platform/zod-messages';
import { AnswerAlreadyStored, checkIdempotencyKey, replayOf, requestHash, storeAnswer } from '../idempotency';
import type { RegistryContext } from '../context';
import type { Authenticator, Caller } from '../auth/caller';
import { DatabaseBusyError, DatabaseUnavailableError } from '../../platform/db/database';
import { bodyCap, ClientAbortedError, DEFAULT_MAX_BODY_BYTES, readBodyText } from './body';
import { acceptedEncoding, COMPRESS_MIN_BYTES, compressAnswers, compressedOnce } from './compression';
import type { FileAnswer, Handler, Handlers, JsonText } from './types';

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
}

export function errorBody(status: number, message: string | string[]) {
  return { statusCode: status, message, error: STATUS_CODES[status] ?? 'Error' };
}

/** A refusal's message as the error body holds it: one string, or the list when there are several. */
const messageOf = (error: RegistryError): string | string[] => (error.messages.length === 1 ? error.messages[0]! : error.messages);

function errorResponse<C extends Context>(c: C, status: number, message: string | string[], headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json(errorBody(status, message), status as 400);
}

/** `/a/{b}/c` to a RegExp matching concrete paths, for the 405 check. */
const pathPattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}/?$`);

/** Contract paths to hono's `:param` syntax. */
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Static segments must win over parameters (`/projects/internal` before `/projects/{id}`): hono
 * runs matching routes in registration order, so register the most specific paths first.
 */
function routeOrder(a: EndpointDefinition, b: EndpointDefinition): number {
  const score = (p: string) =>
    p
      .split('/')
      .map((s) => (s.startsWith('{') ? '1' : '0'))
      .join('');
  const sa = score(a.path);
  const sb = score(b.path);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new RegistryError('bad_request', zodMessages(result.error.issues, where));
  return result.data;
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RegistryError('bad_request', 'body: not valid JSON');
  }
}

async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  return parseJsonBody(await readBodyText(c, maxBytes));
}

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The operator's role must reach the endpoint's; otherwise 403. */
function checkRole(endpoint: EndpointDefinition, caller: Caller): void {
  if (endpoint.auth.kind !== 'operator') return;
  if (caller.kind !== 'operator') throw forbidden('Operator endpoints need an operator token');
  if (!roleAtLeast(caller.role, endpoint.auth.role)) {
    throw forbidden(`This needs the ${endpoint.auth.role} role; operator ${caller.operatorId} is a ${caller.role}`);
  }
}

export function createRegistryApp(options: RegistryAppOptions): Hono {
  const { registry, handlers, authenticator } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
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
      const caller = await authenticator.authenticate({
        authorization: c.req.header('authorization'),
        endpointId: id,
        pathParams,
        clientAddress: clientAddressOf(c),
      });
      const handler = handlers[id] as Handler<EndpointId>;
      if (endpoint.audit !== undefined && caller.kind === 'operator') {
        // An operator write: one audit entry per attempt, idempotent with a key (see operatorWrite).
        const answer = await operatorWrite(c, id, endpoint, endpoint.audit, caller, pathParams, handler).catch((error: unknown) => {
          // a concurrent request with the same key (on any process) committed first: its answer
          if (error instanceof AnswerAlreadyStored) return { ...error.answer, replayed: true };
          throw error;
        });
        if (answer.replayed) c.header('Idempotent-Replayed', 'true');
        return c.json(answer.body as object, answer.status as 200);
      }
      checkRole(endpoint, caller);
      const params = parseOrThrow(endpoint.params, pathParams, 'params');
      const query = parseOrThrow(endpoint.query, c.req.query(), 'query');
      const bodySchema =
        endpoint.bodyByParam?.bodies[String((params as Record<string, unknown>)[endpoint.bodyByParam.param])] ?? endpoint.body;
      const rawBody = bodySchema ? await readJsonBody(c, maxBodyBytes) : {};
      const body = bodySchema ? parseOrThrow(bodySchema, rawBody, 'body') : undefined;
      const result = await handler({ params, query, body, caller, registry, rawBody } as Parameters<Handler<EndpointId>>[0]);
      if (isFileAnswer(result)) {
        c.header('Content-Type', result.contentType);
        c.header('Content-Disposition', `attachment; filename=${result.filename}`);
        c.header('Cache-Control', 'no-store');
        return c.body(result.bytes as Uint8Array<ArrayBuffer>);
      }
      if (isJsonText(result)) {
        c.header('Content-Type', 'application/json');
        const encoding = result.bytes.byteLength >= COMPRESS_MIN_BYTES ? acceptedEncoding(c.req.header('accept-encoding')) : null;
        if (encoding) {
          // Compressed here rather than by compressAnswers: a cached page is then compressed once.
          c.header('Content-Encoding', encoding);
          return c.body((await compressedOnce(result.bytes, encoding)) as Uint8Array<ArrayBuffer>);
        }
        return c.body(result.bytes as Uint8Array<ArrayBuffer>);
      }
      return c.json(result as object, (endpoint.status ?? 200) as 200);
    });
  }

  /**
   * An operator write, in the order of every request (role 403, then Idempotency-Key and input 400,
   * then the operation 404/409), each refusal leaving one `refused` audit entry; a success commits its
   * change, its `succeeded` entry and (with a key) its stored answer together. A replay of a stored
   * answer changes nothing and adds no entry.
   */
  async function operatorWrite(
    c: Context,
    id: EndpointId,
    endpoint: EndpointDefinition,
    action: string,
    caller: Extract<Caller, { kind: 'operator' }>,
    pathParams: Record<string, string>,
    handler: Handler<EndpointId>,
  ): Promise<{ status: number; body: unknown; replayed: boolean }> {
    const text = await readBodyText(c, maxBodyBytes);
    let received: unknown;
    let hashed: unknown;
    try {
      received = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
      hashed = received;
    } catch {
      received = { unparsableBody: true };
      hashed = { unparsableBody: text };
    }
    const attempt: AuditedAttempt = {
      operatorId: caller.operatorId,
      actor: `operator:${caller.operatorId}`,
      action,
      input: received,
      targetIds: Object.values(pathParams),
    };
    const status = endpoint.status ?? 200;
    let prepared: { key?: string; hash: string; input: Parameters<Handler<EndpointId>>[0] };
    // Set once the key is known to be new (or expired) for this request: from then on a refusal is
    // stored with it, so a retry after a lost answer gets the same refusal (and adds no entry).
    let storeRefusal: ((error: RegistryError) => void) | undefined;
    try {
      checkRole(endpoint, caller);
      const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
      const key = header === undefined ? undefined : checkIdempotencyKey(header);
      const hash = requestHash(endpoint.method, c.req.path, endpoint.body ? hashed : {});
      if (key !== undefined) {
        const replay = replayOf(registry, caller.operatorId, key, hash);
        if (replay) return { status: replay.status, body: replay.body, replayed: true };
        storeRefusal = (error) => {
          if (Object.keys(error.headers).length > 0) return; // an answer that depends on the moment (Retry-After)
          storeAnswer(registry, caller.operatorId, key, hash, { status: error.status, body: errorBody(error.status, messageOf(error)) });
        };
      }
      const params = parseOrThrow(endpoint.params, pathParams, 'params');
      const query = parseOrThrow(endpoint.query, c.req.query(), 'query');
      const rawBody = endpoint.body ? parseJsonBody(text) : {};
      const body = endpoint.body ? parseOrThrow(endpoint.body, rawBody, 'body') : undefined;
      prepared = { hash, input: { params, query, body, caller, registry, rawBody } as Parameters<Handler<EndpointId>>[0] };
      if (key !== undefined) prepared.key = key;
    } catch (error) {
      if (error instanceof RegistryError) auditRefusal(registry, attempt, error, { refused: storeRefusal });
      throw error;
    }
    const { key, hash, input } = prepared;
    const result = audited(registry, attempt, () => handler(input) as unknown, {
      succeeded: (answer) => {
        if (answer instanceof Promise) throw new Error(`${id}: operator write handlers must be synchronous`);
        if (key !== undefined) storeAnswer(registry, caller.operatorId, key, hash, { status, body: answer });
      },
      refused: storeRefusal,
    });
    return { status, body: result, replayed: false };
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

/** How many times the request carries header `name` (Node's raw headers; 0 or 1 when not known). */
function headerCount(c: { env: unknown; req: { header(name: string): string | undefined } }, name: string): number {
  const raw = (c.env as { incoming?: { rawHeaders?: string[] } } | undefined)?.incoming?.rawHeaders;
  if (!raw) return c.req.header(name) === undefined ? 0 : 1;
  const lower = name.toLowerCase();
  return raw.filter((value, i) => i % 2 === 0 && value.toLowerCase() === lower).length;
}

/** The peer's address from Node's socket (@hono/node-server puts the request in `c.env.incoming`). */
function clientAddressOf(c: { env: unknown }): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

export const DISK_FULL_MESSAGE =
  "The registry's disk is full: nothing was changed. Reads still work; retry the change once the operator has freed space.";

/** SQLite's "database or disk is full" (a full disk, or the database at its max_page_count). */
function isDiskFull(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_FULL';
}

function isJsonText(value: unknown): value is JsonText<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'json-text' && 'bytes' in value;
}

function isFileAnswer(value: unknown): value is FileAnswer {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'file' && 'bytes' in value;
}

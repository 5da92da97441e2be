// Every request made with operator credentials, after authentication, under one audit rule: a write
// attempt (dry runs and token grants included) leaves exactly one entry whatever its outcome, and
// any other request leaves exactly one entry when it is refused (403, 400, 404, 413, 429, a body cut
// off). A successful read leaves none. An idempotent replay of a stored answer changes nothing and
// adds no entry. Refusals are budgeted per operator: past the budget every request of that operator
// is 429 (with a small entry) until it refills, so refused attempts cannot flood the log.
import type { Context } from 'hono';
import { MAX_AMOUNT_TONNES, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { bodyDigest } from '../audit-record';
import { audited, auditRefusal, type AuditedAttempt } from '../audit';
import type { Caller } from '../auth/caller';
import type { RateLimiter } from '../auth/rate-limit';
import type { RegistryContext } from '../context';
import { RegistryError } from '../errors';
import { checkIdempotencyKey, replayOf, requestHash, storeAnswer } from '../idempotency';
import { ClientAbortedError, readBodyText, tooLarge } from './body';
import { inexactNumbers, parseJsonText } from './json-body';
import { checkRole, errorBody, IDEMPOTENCY_KEY_HEADER, messageOf, parseOrThrow, parseParamsOrQuery, querySchemaOf } from './pipeline-parts';
import type { Handler } from './types';
import { unknownFields, unknownFieldsMessage } from './unknown-fields';

type OperatorCaller = Extract<Caller, { kind: 'operator' }>;

export interface OperatorPipeline {
  registry: RegistryContext;
  maxBodyBytes: number;
  /** Longest pause while a body arrives; then 408. */
  bodyIdleMs: number;
  /** Refused attempts per operator (429 once spent). */
  refusals: RateLimiter;
}

export interface OperatorAnswer {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** The audit log's name for a request: the write's own, `operatorTokens.create`, `preview.<op>`, `read.<endpoint>`. */
export function actionOf(id: EndpointId, endpoint: EndpointDefinition, pathParams: Record<string, string>): string {
  if (endpoint.audit !== undefined) return endpoint.audit;
  if (id === 'createOperatorToken') return 'operatorTokens.create';
  if (id === 'operatorPreview') return `preview.${String(pathParams.operation ?? '')}`.slice(0, 100);
  return `read.${id}`;
}

/** Writes, dry runs and token grants: audited whatever their outcome. */
const alwaysAudited = (id: EndpointId, endpoint: EndpointDefinition) =>
  endpoint.audit !== undefined || id === 'createOperatorToken' || id === 'operatorPreview';

interface Prepared {
  input: Parameters<Handler<EndpointId>>[0];
  key?: string;
  hash: string;
}

export async function operatorRequest(
  pipeline: OperatorPipeline,
  c: Context,
  id: EndpointId,
  endpoint: EndpointDefinition,
  caller: OperatorCaller,
  pathParams: Record<string, string>,
  handler: Handler<EndpointId>,
): Promise<OperatorAnswer> {
  const { registry, refusals } = pipeline;
  const attempt: AuditedAttempt = {
    operatorId: caller.operatorId,
    actor: `operator:${caller.operatorId}`,
    action: actionOf(id, endpoint, pathParams),
    input: null,
    targetSource: null,
    targetIds: Object.values(pathParams).map((v) => v.slice(0, 300)),
  };
  let storeRefusal: ((error: RegistryError) => void) | undefined;
  const refuse = (error: RegistryError) => {
    auditRefusal(registry, attempt, error, { refused: storeRefusal });
    refusals.spend(caller.operatorId);
  };
  const status = endpoint.status ?? 200;
  let prepared: Prepared;
  try {
    refusals.check(caller.operatorId, 'Too many refused requests from this operator; retry later');
  } catch (error) {
    if (error instanceof RegistryError) auditRefusal(registry, attempt, error);
    throw error;
  }
  try {
    const result = await prepare(pipeline, c, endpoint, caller, pathParams, attempt, (store) => (storeRefusal = store));
    if ('replay' in result) return { ...result.replay, replayed: true };
    prepared = result;
  } catch (error) {
    if (error instanceof RegistryError) refuse(error);
    else if (error instanceof ClientAbortedError) refuse(new RegistryError('bad_request', 'The request body was cut off before its end'));
    throw error;
  }
  const { key, hash, input } = prepared;
  if (!alwaysAudited(id, endpoint)) {
    try {
      return { status, body: await handler(input), replayed: false };
    } catch (error) {
      if (error instanceof RegistryError) refuse(error);
      throw error;
    }
  }
  const body = audited(registry, attempt, () => handler(input) as unknown, {
    succeeded: (answer) => {
      if (answer instanceof Promise) throw new Error(`${id}: operator write handlers must be synchronous`);
      if (key !== undefined) storeAnswer(registry, caller.operatorId, key, hash, { status, body: answer });
    },
    refused: (error) => {
      storeRefusal?.(error);
      refusals.spend(caller.operatorId);
    },
  });
  return { status, body, replayed: false };
}

/**
 * Everything before the handler, in the order of every request: role 403, body 413/cut off,
 * Idempotency-Key (a replay ends here), then params, query and body 400. Fills `attempt` as it
 * learns: the body's digest and size, its received value, and once validated, the targets' source.
 */
async function prepare(
  { registry, maxBodyBytes, bodyIdleMs }: OperatorPipeline,
  c: Context,
  endpoint: EndpointDefinition,
  caller: OperatorCaller,
  pathParams: Record<string, string>,
  attempt: AuditedAttempt,
  onKey: (store: (error: RegistryError) => void) => void,
): Promise<Prepared | { replay: { status: number; body: unknown } }> {
  checkRole(endpoint, caller);
  const declared = c.req.header('content-length')?.trim();
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBodyBytes) throw tooLarge(maxBodyBytes);
  const text = endpoint.body ? await readBodyText(c, maxBodyBytes, bodyIdleMs) : '';
  attempt.request = bodyDigest(text);
  let received: unknown;
  let parseError: RegistryError | undefined;
  try {
    received = parseJsonText(text);
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    parseError = error;
    received = { unparsableBody: true };
  }
  attempt.input = received;
  let key: string | undefined;
  const hash = requestHash(
    endpoint.method,
    c.req.path,
    endpoint.body ? (parseError ? { unparsableBody: attempt.request.sha256 } : received) : {},
  );
  if (endpoint.audit !== undefined) {
    const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
    key = header === undefined ? undefined : checkIdempotencyKey(header);
    if (key !== undefined) {
      const replay = replayOf(registry, caller.operatorId, key, hash);
      if (replay) return { replay };
      const k = key;
      onKey((error) => {
        if (Object.keys(error.headers).length > 0) return; // an answer that depends on the moment (Retry-After)
        storeAnswer(registry, caller.operatorId, k, hash, { status: error.status, body: errorBody(error.status, messageOf(error)) });
      });
    }
  }
  if (parseError) throw parseError;
  const params = parseParamsOrQuery(endpoint.params, pathParams, 'params');
  const query = parseParamsOrQuery(querySchemaOf(endpoint, params), c.req.query(), 'query');
  let body: unknown;
  if (endpoint.body) {
    const inexact = inexactNumbers(text);
    if (inexact.length > 0) {
      throw new RegistryError(
        'bad_request',
        `body: the number ${inexact[0]} has more digits than the registry can hold exactly; send at most 15 significant digits (amounts: whole grams, at most ${MAX_AMOUNT_TONNES} t)`,
      );
    }
    const unknown = unknownFields(endpoint.body, received);
    if (unknown.length > 0) throw new RegistryError('bad_request', unknownFieldsMessage(unknown));
    body = parseOrThrow(endpoint.body, received, 'body');
  }
  attempt.targetSource = { ...(params as object), ...(query as object), ...(typeof body === 'object' && body !== null ? body : {}) };
  const input = { params, query, body, caller, registry, rawBody: received } as Parameters<Handler<EndpointId>>[0];
  return key !== undefined ? { input, key, hash } : { input, hash };
}

/**
 * A token request refused at authentication whose JWT names an existing operator (its `iss`, not
 * verified): one `operatorTokens.create` entry with no operator (nobody was authenticated), the named
 * one as its target. A JWT naming no operator is not anyone's attempt and leaves none; neither do
 * refusals past the client address's budget.
 */
export function recordTokenRefusal(
  pipeline: OperatorPipeline,
  authorization: string | undefined,
  address: string,
  error: RegistryError,
): void {
  const iss = unverifiedIssuer(authorization);
  if (iss === undefined) return;
  const { registry, refusals } = pipeline;
  if (!registry.db.first(registry.db.q.selectFrom('operators').select('id').where('id', '=', iss))) return;
  try {
    refusals.take(`token-address:${address}`);
  } catch {
    return;
  }
  auditRefusal(
    registry,
    { operatorId: null, actor: `unverified:${iss}`, action: 'operatorTokens.create', input: null, targetIds: [iss] },
    error,
  );
}

function unverifiedIssuer(authorization: string | undefined): string | undefined {
  const match = /^Bearer ([\w-]+)\.([\w-]+)\.[\w-]*$/.exec(authorization ?? '');
  if (!match || match[2]!.length > 8192) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(match[2]!, 'base64url').toString('utf8')) as unknown;
    const iss = typeof claims === 'object' && claims !== null ? (claims as { iss?: unknown }).iss : undefined;
    return typeof iss === 'string' && iss.length > 0 && iss.length <= 200 ? iss : undefined;
  } catch {
    return undefined;
  }
}

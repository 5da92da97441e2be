// One endpoint's route: authenticate the caller, then either the operator's audited pipeline
// (operator-pipeline.ts) or the contract's (role, params, query, body, handler), and the answer. A
// handler made of a read and an answer (read-along.ts) has its read sent with the token's lookup.
import type { Context } from 'hono';
import type { EndpointDefinition, EndpointId } from '@shared/registry/endpoints';
import type { AuthenticationRequest, Authenticator, Caller } from '@registry/auth/caller';
import { RegistryError } from '@registry/errors';
import { AnswerAlreadyStored } from '@registry/idempotency';
import { readBodyText } from './body';
import { parseJsonText } from './json-body';
import { operatorRequest, recordTokenRefusal, type OperatorPipeline } from './operator-pipeline';
import { checkRole, parseOrThrow, parseParamsOrQuery, querySchemaOf } from './pipeline-parts';
import { readAlongOf } from './read-along';
import { respond } from './respond';
import type { Handler, HandlerInput, Handlers } from './types';

/** What every route shares: the operator pipeline (registry and body limits included) and who is calling. */
export interface RouteDeps {
  pipeline: OperatorPipeline;
  handlers: Handlers;
  authenticator: Authenticator;
  /** The client's address as the rate limits and the audit see it (client-address.ts). */
  clientAddressOf(c: Context): string;
}

async function readJsonBody(c: Context, maxBytes: number, idleMs: number): Promise<unknown> {
  return parseJsonText(await readBodyText(c, maxBytes, idleMs));
}

type Input = HandlerInput<EndpointId>;

function paramsAndQuery(endpoint: EndpointDefinition, pathParams: Record<string, string>, c: Context): Pick<Input, 'params' | 'query'> {
  const params = parseParamsOrQuery(endpoint.params, pathParams, 'params');
  const query = parseParamsOrQuery(querySchemaOf(endpoint, params), c.req.query(), 'query');
  return { params, query } as Pick<Input, 'params' | 'query'>;
}

/** paramsAndQuery, or undefined when they are refused (the refusal is answered in its turn, after the caller's). */
function validParamsAndQuery(endpoint: EndpointDefinition, pathParams: Record<string, string>, c: Context) {
  try {
    return paramsAndQuery(endpoint, pathParams, c);
  } catch (error) {
    if (error instanceof RegistryError) return undefined;
    throw error;
  }
}

/** The hono handler of endpoint `id`. */
export function endpointRoute(deps: RouteDeps, id: EndpointId, endpoint: EndpointDefinition) {
  const { pipeline, handlers, authenticator, clientAddressOf } = deps;
  const { registry, maxBodyBytes, bodyIdleMs } = pipeline;
  const handler = handlers[id] as Handler<EndpointId>;
  // only an access token is looked up in the database: a read can go along with nothing else
  const along = endpoint.auth.kind === 'accessToken' ? readAlongOf(handler) : undefined;
  return async (c: Context) => {
    const pathParams = c.req.param() as Record<string, string>;
    const authorization = c.req.header('authorization');
    const request: AuthenticationRequest = { authorization, endpointId: id, pathParams, clientAddress: clientAddressOf(c) };
    // the read is built from them before the caller is known
    const early = along && validParamsAndQuery(endpoint, pathParams, c);
    let caller: Caller;
    let rows: unknown[] | undefined;
    try {
      if (early) ({ caller, rows } = await authenticator.authenticateWith(request, along.read({ ...early, registry })));
      else caller = await authenticator.authenticate(request);
    } catch (error) {
      if (id === 'createOperatorToken' && error instanceof RegistryError) {
        recordTokenRefusal(pipeline, authorization, clientAddressOf(c), error);
      }
      throw error;
    }
    if (caller.kind === 'operator') {
      // Every operator request: audited by one rule (operator-pipeline.ts).
      const answer = await operatorRequest(pipeline, c, id, endpoint, caller, pathParams, handler).catch((error: unknown) => {
        // a concurrent request with the same key (on any process) committed first: its answer
        if (error instanceof AnswerAlreadyStored) return { ...error.answer, replayed: true };
        throw error;
      });
      if (answer.replayed) c.header('Idempotent-Replayed', 'true');
      return respond(c, answer.body, answer.status);
    }
    checkRole(endpoint, caller);
    const { params, query } = early ?? paramsAndQuery(endpoint, pathParams, c);
    const bodySchema =
      endpoint.bodyByParam?.bodies[String((params as Record<string, unknown>)[endpoint.bodyByParam.param])] ?? endpoint.body;
    const rawBody = bodySchema ? await readJsonBody(c, maxBodyBytes, bodyIdleMs) : {};
    const body = bodySchema ? parseOrThrow(bodySchema, rawBody, 'body') : undefined;
    const input = { params, query, body, caller, registry, rawBody } as Input;
    const result = await (along && rows ? along.answer(input, rows) : handler(input));
    return respond(c, result, endpoint.status ?? 200);
  };
}

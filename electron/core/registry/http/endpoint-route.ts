// One endpoint's route: authenticate the caller, then either the operator's audited pipeline
// (operator-pipeline.ts) or the contract's (role, params, query, body, handler), and the answer.
import type { Context } from 'hono';
import type { EndpointDefinition, EndpointId } from '@shared/registry/endpoints';
import type { Authenticator, Caller } from '@registry/auth/caller';
import { RegistryError } from '@registry/errors';
import { AnswerAlreadyStored } from '@registry/idempotency';
import { readBodyText } from './body';
import { parseJsonText } from './json-body';
import { operatorRequest, recordTokenRefusal, type OperatorPipeline } from './operator-pipeline';
import { checkRole, parseOrThrow, parseParamsOrQuery, querySchemaOf } from './pipeline-parts';
import { respond } from './respond';
import type { Handler, Handlers } from './types';

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

/** The hono handler of endpoint `id`. */
export function endpointRoute(deps: RouteDeps, id: EndpointId, endpoint: EndpointDefinition) {
  const { pipeline, handlers, authenticator, clientAddressOf } = deps;
  const { registry, maxBodyBytes, bodyIdleMs } = pipeline;
  return async (c: Context) => {
    const pathParams = c.req.param() as Record<string, string>;
    const authorization = c.req.header('authorization');
    let caller: Caller;
    try {
      caller = await authenticator.authenticate({ authorization, endpointId: id, pathParams, clientAddress: clientAddressOf(c) });
    } catch (error) {
      if (id === 'createOperatorToken' && error instanceof RegistryError) {
        recordTokenRefusal(pipeline, authorization, clientAddressOf(c), error);
      }
      throw error;
    }
    const handler = handlers[id] as Handler<EndpointId>;
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
    const params = parseParamsOrQuery(endpoint.params, pathParams, 'params');
    const query = parseParamsOrQuery(querySchemaOf(endpoint, params), c.req.query(), 'query');
    const bodySchema =
      endpoint.bodyByParam?.bodies[String((params as Record<string, unknown>)[endpoint.bodyByParam.param])] ?? endpoint.body;
    const rawBody = bodySchema ? await readJsonBody(c, maxBodyBytes, bodyIdleMs) : {};
    const body = bodySchema ? parseOrThrow(bodySchema, rawBody, 'body') : undefined;
    const result = await handler({ params, query, body, caller, registry, rawBody } as Parameters<Handler<EndpointId>>[0]);
    return respond(c, result, endpoint.status ?? 200);
  };
}

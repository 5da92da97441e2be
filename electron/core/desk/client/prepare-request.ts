// A call made ready to send: its params, query and body checked against the endpoint table, its
// path filled, the token scope it needs chosen, and an Idempotency-Key for operator writes.
import { randomUUID } from 'node:crypto';
import { endpoints, fillPath, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { invalidRequest } from './answer-checks';
import type { CallInput } from './call-types';
import { RegistryClientError } from './errors';
import type { HttpRequest } from './http';
import type { TokenScope } from './tokens';

/** A call checked against the table and made ready to send: its request, without the bearer, and whose token it needs. */
export function prepareRequest<K extends EndpointId>(id: K, input: CallInput<K>, defaultTimeoutMs: number) {
  const endpoint = endpoints[id] as unknown as EndpointDefinition;
  const params = endpoint.params.safeParse(input.params ?? {});
  if (!params.success) throw invalidRequest(id, 'params', params.error.issues);
  const wireQuery: Record<string, string> = {};
  for (const [name, value] of Object.entries<string | number | undefined>(input.query ?? {}))
    if (value !== undefined) wireQuery[name] = String(value);
  const query = endpoint.query.safeParse(wireQuery);
  if (!query.success) throw invalidRequest(id, 'query', query.error.issues);
  let body: unknown;
  if (endpoint.body) {
    const parsed = endpoint.body.safeParse(input.body ?? {});
    if (!parsed.success) throw invalidRequest(id, 'body', parsed.error.issues);
    // Operator bodies go as given: their schemas are the operations' inputs, whose output is not
    // wire form (dates become epoch milliseconds), and the registry parses them itself.
    body = endpoint.auth.kind === 'operator' ? (input.body ?? {}) : (parsed.data ?? {});
  }
  const path = fillPath(endpoint.path, params.data as Record<string, string>);
  const auth = endpoint.auth;
  let scope: TokenScope | 'jwt';
  if (auth.kind === 'appJwt') scope = 'jwt';
  else if (auth.kind === 'operatorJwt') {
    throw new RegistryClientError('invalid_request', `${id}: operator tokens come from the token manager`, { endpoint: id });
  } else if (auth.kind === 'operator') scope = { kind: 'operator' };
  else if (input.installationId) scope = { kind: 'installation', installationId: input.installationId };
  else if (auth.organizationParam) {
    throw new RegistryClientError('invalid_request', `${id}: needs the installationId of the organization`, { endpoint: id });
  } else scope = { kind: 'app' };
  const request: Omit<HttpRequest, 'bearer'> = {
    method: endpoint.method,
    path,
    query: wireQuery,
    body,
    timeoutMs: input.timeoutMs ?? defaultTimeoutMs,
    endpoint: id,
  };
  // Operator writes carry an Idempotency-Key (the caller's, or a new one reused by every retry of
  // this call), so a retry after a lost answer is answered from the registry's record, never run twice.
  if (endpoint.audit !== undefined) request.idempotencyKey = input.idempotencyKey ?? randomUUID();
  return { endpoint, request, scope };
}

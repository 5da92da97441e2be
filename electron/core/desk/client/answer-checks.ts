// How the client checks what it sends and what it is answered against the endpoint table, and the
// failures it reports when either breaks the contract.
import type { z } from 'zod';
import { endpoints, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { tolerant } from '@shared/registry/resources';
import { RegistryClientError } from './errors';
import type { ClientResponse } from './responses';

function formatIssues(issues: readonly z.core.$ZodIssue[], limit = 10): string[] {
  const lines = issues.slice(0, limit).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`);
  if (issues.length > limit) lines.push(`… and ${issues.length - limit} more`);
  return lines;
}

/** The failure for an answer that is not JSON (also used by the sync, which reads some answers piece by piece). */
export function answerNotJson(id: EndpointId): RegistryClientError {
  const { method, path } = endpoints[id];
  return new RegistryClientError('invalid_response', `${method} ${path}: the answer is not JSON`, { endpoint: id });
}

/** The failure for an answer that breaks the contract, naming the first issues by their path. */
export function answerBreaksContract(id: EndpointId, issues: readonly z.core.$ZodIssue[]): RegistryClientError {
  const { method, path } = endpoints[id];
  const messages = formatIssues(issues);
  return new RegistryClientError('invalid_response', `${method} ${path}: the answer does not match the contract: ${messages.join('; ')}`, {
    endpoint: id,
    messages,
  });
}

export function invalidRequest(id: EndpointId, where: string, issues: readonly z.core.$ZodIssue[]): RegistryClientError {
  const messages = formatIssues(issues).map((m) => `${where}.${m}`);
  return new RegistryClientError('invalid_request', `${id}: invalid ${where}: ${messages.join('; ')}`, { endpoint: id, messages });
}

// Each endpoint's tolerant answer schema, built once: building it costs 6–60 µs a call, and zod
// compiles a schema's checks afresh for every new schema object.
const responseSchemas = new Map<EndpointId, z.ZodType>();
export function responseSchema(id: EndpointId): z.ZodType {
  let schema = responseSchemas.get(id);
  if (!schema) {
    schema = (endpoints[id] as unknown as EndpointDefinition).response(tolerant);
    responseSchemas.set(id, schema);
  }
  return schema;
}

/** Parses and checks an answer's text as endpoint `id` answers it. */
export function parseAnswer<K extends EndpointId>(id: K, text: string): ClientResponse<K> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw answerNotJson(id);
  }
  const result = responseSchema(id).safeParse(json);
  if (!result.success) {
    throw answerBreaksContract(id, result.error.issues);
  }
  return result.data as ClientResponse<K>;
}

// The error answers /openapi.json lists for an operation, and its description. An operation whose
// table row states its refusals (the operator interface's writes) lists exactly the statuses it can
// answer: those of the rules every request meets, and its own, each response saying when; its own
// are also in `x-refusals` ({ status, when }) for tools. Any other lists every error status.
import type { EndpointDefinition } from '@shared/registry/endpoints';
import { MAX_JSON_DEPTH } from './json-body';

type JsonSchema = Record<string, unknown>;

// 413: a body over the cap (any request); 507: a write on a full disk.
const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '429', '507'];

/** The rules every request of the operator interface meets, by status (docs/api.md, docs/security.md). */
function commonRules(e: EndpointDefinition): Record<string, string> {
  const write = e.audit !== undefined;
  return {
    '400':
      'The request does not match this document: a parameter or a body field breaks its schema, or a text holds the NUL character (U+0000) or an unpaired surrogate' +
      (e.body
        ? `, the body has a field its schema does not list, is not JSON, is nested more than ${MAX_JSON_DEPTH} levels deep, or holds a number with more than 15 significant digits`
        : ''),
    '401': 'No operator token, or one that is invalid, expired, or of a disabled operator',
    '403': `The operator's role is below ${e.auth.kind === 'operator' ? e.auth.role : 'the one this needs'}`,
    ...(write ? { '409': 'The Idempotency-Key was used within 24 hours for a different request' } : {}),
    // the body cap is met before routing, so a request without a body schema (a DELETE) meets it too
    '413': e.body ? 'The body is larger than the registry accepts' : 'The request carries a body larger than the registry accepts',
    '429': "Too many refused requests from this operator (or requests from this address); retry after Retry-After's seconds",
    ...(write ? { '507': "The registry's disk is full; nothing was written" } : {}),
  };
}

export function errorResponses(e: EndpointDefinition, errorSchema: JsonSchema): Record<string, unknown> {
  const content = { 'application/json': { schema: errorSchema } };
  if (e.refusals === undefined) return Object.fromEntries(ERROR_STATUSES.map((code) => [code, { description: 'Error', content }]));
  const said: Record<string, string[]> = {};
  for (const [code, text] of Object.entries(commonRules(e))) (said[code] ??= []).push(text);
  for (const r of e.refusals) (said[String(r.status)] ??= []).push(`Refused when ${r.when}`);
  return Object.fromEntries(
    Object.keys(said)
      .sort()
      .map((code) => [code, { description: said[code]!.join('. ') + '.', content }]),
  );
}

/** The operation's description: its own words, then its refusals in a list. */
export function operationDescription(e: EndpointDefinition): string | undefined {
  const own = e.description;
  if (!e.refusals?.length) return own;
  const list = e.refusals.map((r) => `- ${r.status} when ${r.when}`).join('\n');
  return `${own ? `${own}\n\n` : ''}Refused, besides the rules every request meets:\n${list}`;
}

/**
 * The operator interface refuses a body field its schema does not list (400 naming it), at every
 * depth: the document says so with `additionalProperties: false` on each object of the body that
 * lists its properties (a map such as `permissions` states its own).
 */
export function closeObjects(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      // examples are values, not schemas
      out[key] = key === 'examples' || key === 'default' || key === 'enum' || key === 'const' ? value : walk(value);
    }
    if (out.type === 'object' && typeof out.properties === 'object' && out.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
    return out;
  };
  return walk(schema) as JsonSchema;
}

// GET /openapi.json: an OpenAPI 3.1 document generated from the shared endpoint table and its zod
// schemas (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits directly).
import type { Hono } from 'hono';
import { z } from 'zod';
import { endpointIds, endpoints, queryIntegers, type EndpointDefinition } from '@shared/registry/endpoints';
import { strict } from '@shared/registry/resources';
import { API_VERSION, API_VERSION_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH } from '@shared/registry/vocabulary';
import { healthPaths } from './health';
import { closeObjects, errorResponses, operationDescription } from './openapi-refusals';
import { transparencyErrorSchema, transparencyPaths } from './openapi-transparency';

type JsonSchema = Record<string, unknown>;

/**
 * zod's JSON Schema, with query-string integers (text on the wire, see `queryIntegers`) stated as
 * the integers they are, with their bounds, so clients and schema-driven tools send the right thing.
 */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const json = ctx.jsonSchema as JsonSchema;
      // zod leaves examples out of the input side of a schema that transforms (they may be output
      // values); ours are written as the input a client sends, so they go back in.
      const examples = z.globalRegistry.get(ctx.zodSchema)?.examples;
      if (io === 'input' && examples !== undefined && json.examples === undefined) json.examples = examples;
      const integer = queryIntegers.get(ctx.zodSchema);
      if (!integer) return;
      delete json.type;
      delete json.pattern;
      Object.assign(json, {
        type: 'integer',
        minimum: integer.minimum,
        maximum: integer.maximum,
        description: integer.description,
        examples: [integer.example],
      });
    },
  }) as JsonSchema;

/** A schema without its `$schema` marker, to embed in the document (which sets the dialect once). */
function embedded(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function objectProperties(schema: z.ZodType): { name: string; required: boolean; schema: JsonSchema }[] {
  const json = jsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({ name, required: required.has(name), schema: s }));
}

/**
 * Query parameters. One that must be given together with or instead of another (an `anyOf` over
 * the query object, e.g. `creditId` or `serialization`) cannot be said parameter by parameter, so
 * that query is one form-exploded object parameter carrying the rule.
 */
function queryParameters(query: z.ZodType): JsonSchema[] {
  const json = embedded(jsonSchema(query, 'input'));
  if (json.anyOf || json.oneOf) {
    return [{ name: 'query', in: 'query', required: true, style: 'form', explode: true, schema: json }];
  }
  return objectProperties(query).map((p) => ({ name: p.name, in: 'query', required: p.required, schema: p.schema }));
}

function securityOf(e: EndpointDefinition) {
  switch (e.auth.kind) {
    case 'appJwt':
      return [{ appJwt: [] }];
    case 'operatorJwt':
      return [{ operatorJwt: [] }];
    case 'operator':
      return [{ operatorToken: [] }];
    default:
      return [{ accessToken: [] }];
  }
}

interface Variant {
  operationId: string;
  path: string;
  /** The path parameter this variant fixes to a value. */
  fixed?: string;
  query: z.ZodType;
  body?: z.ZodType;
}

/** One operation for each endpoint, or for each value of the parameter its body or query depends on. */
function variantsOf(id: string, e: EndpointDefinition): Variant[] {
  const byParam = e.bodyByParam
    ? { param: e.bodyByParam.param, values: Object.keys(e.bodyByParam.bodies) }
    : e.queryByParam
      ? { param: e.queryByParam.param, values: Object.keys(e.queryByParam.queries) }
      : undefined;
  if (!byParam) return [{ operationId: id, path: e.path, query: e.query, ...(e.body ? { body: e.body } : {}) }];
  return byParam.values.map((value) => {
    const body = e.bodyByParam?.bodies[value] ?? e.body;
    return {
      operationId: `${id}_${value}`,
      path: e.path.replace(`{${byParam.param}}`, value),
      fixed: byParam.param,
      query: e.queryByParam?.queries[value] ?? e.query,
      ...(body ? { body } : {}),
    };
  });
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = embedded(jsonSchema(strict.errorBody, 'output'));
  for (const id of endpointIds) {
    const e = endpoints[id] as EndpointDefinition;
    const organizationParam = e.auth.kind === 'accessToken' ? e.auth.organizationParam : undefined;
    for (const variant of variantsOf(id, e)) {
      const parameters = [
        ...objectProperties(e.params)
          .filter((p) => p.name !== variant.fixed)
          .map((p) => ({ name: p.name, in: 'path', required: true, schema: p.schema })),
        ...queryParameters(variant.query),
        { name: API_VERSION_HEADER, in: 'header', required: false, schema: { type: 'string', default: API_VERSION, enum: [API_VERSION] } },
        ...(e.audit !== undefined
          ? [
              {
                name: 'Idempotency-Key',
                in: 'header',
                required: false,
                description: 'The same key and request within 24 hours answers the first answer again; a different request is 409',
                schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
              },
            ]
          : []),
      ];
      const success =
        e.responseType === 'pdf'
          ? { description: 'The certificate', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } }
          : { description: 'Success', content: { 'application/json': { schema: embedded(jsonSchema(e.response(strict), 'output')) } } };
      const description = operationDescription(e);
      const operation: Record<string, unknown> = {
        operationId: variant.operationId,
        summary: e.summary,
        ...(description !== undefined ? { description } : {}),
        tags: e.tags,
        parameters,
        security: securityOf(e),
        responses: { [String(e.status ?? 200)]: success, ...errorResponses(e, errorSchema) },
        ...(e.refusals !== undefined ? { 'x-refusals': e.refusals } : {}),
        ...(e.auth.kind === 'accessToken' && e.auth.permission ? { 'x-required-permission': e.auth.permission } : {}),
        ...(e.auth.kind === 'operator' ? { 'x-required-role': e.auth.role } : {}),
        ...(e.audit !== undefined ? { 'x-audit-action': e.audit } : {}),
        // An installation token acts only for its own organization: another id here is 403.
        ...(organizationParam ? { 'x-organization-parameter': organizationParam } : {}),
      };
      if (variant.body) {
        const stated = embedded(jsonSchema(variant.body, 'input'));
        const operatorInterface = e.auth.kind === 'operator' || e.auth.kind === 'operatorJwt';
        const body = operatorInterface ? closeObjects(stated) : stated;
        const required = Array.isArray(body.required) && body.required.length > 0;
        operation.requestBody = { required, content: { 'application/json': { schema: body } } };
      }
      (paths[variant.path] ??= {})[e.method.toLowerCase()] = operation;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Carbon Credit Registry Service',
      version: API_VERSION,
      description:
        'The registry service interface as served by Registry Desk. Every error is { statusCode, message, error }. ' +
        'Amounts are tonnes in whole grams (0.000001 t). Page-based lists count pages from 0.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    // Relative: the registry that serves this document is the server it describes.
    servers: [{ url: '/', description: 'This registry' }],
    components: {
      securitySchemes: {
        appJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'RS256 JWT signed by the app (iss = app id)' },
        accessToken: { type: 'http', scheme: 'bearer', description: 'App or installation access token' },
        operatorJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'RS256 JWT signed by the operator (iss = operator id)',
        },
        operatorToken: { type: 'http', scheme: 'bearer', description: 'Operator token from POST /operator/v1/tokens' },
      },
      schemas: { TransparencyError: transparencyErrorSchema },
    },
    // the health endpoints and the transparency log's public endpoints, beside the interface's
    paths: { ...paths, ...healthPaths(errorSchema), ...transparencyPaths() },
  };
}

export function serveOpenApi(app: Hono): void {
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', (c) => c.json((document ??= buildOpenApiDocument())));
}

// GET /openapi.json: an OpenAPI 3.1 document generated from the shared endpoint table and its zod
// schemas (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits directly).
import type { Hono } from 'hono';
import { z } from 'zod';
import { endpointIds, endpoints, type EndpointDefinition } from '../../../shared/registry/endpoints';
import { strict } from '../../../shared/registry/resources';
import { API_VERSION, API_VERSION_HEADER } from '../../../shared/registry/vocabulary';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;

function objectProperties(schema: z.ZodType): { name: string; required: boolean; schema: Record<string, unknown> }[] {
  const json = jsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({ name, required: required.has(name), schema: s }));
}

function securityOf(e: EndpointDefinition) {
  return e.auth.kind === 'appJwt' ? [{ appJwt: [] }] : [{ accessToken: [] }];
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = jsonSchema(strict.errorBody, 'output');
  for (const id of endpointIds) {
    const e = endpoints[id] as EndpointDefinition;
    const parameters = [
      ...objectProperties(e.params).map((p) => ({ name: p.name, in: 'path', required: true, schema: p.schema })),
      ...objectProperties(e.query).map((p) => ({ name: p.name, in: 'query', required: p.required, schema: p.schema })),
      { name: API_VERSION_HEADER, in: 'header', required: false, schema: { type: 'string', default: API_VERSION, enum: [API_VERSION] } },
    ];
    const success =
      e.responseType === 'pdf'
        ? { description: 'The certificate', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } }
        : { description: 'Success', content: { 'application/json': { schema: jsonSchema(e.response(strict), 'output') } } };
    const errors = Object.fromEntries(
      ['400', '401', '403', '404', '409', '429'].map((code) => [
        code,
        { description: 'Error', content: { 'application/json': { schema: errorSchema } } },
      ]),
    );
    const operation: Record<string, unknown> = {
      operationId: id,
      summary: e.summary,
      tags: e.tags,
      parameters,
      security: securityOf(e),
      responses: { '200': success, ...errors },
      ...(e.auth.kind === 'accessToken' && e.auth.permission ? { 'x-required-permission': e.auth.permission } : {}),
    };
    if (e.body) {
      operation.requestBody = { required: false, content: { 'application/json': { schema: jsonSchema(e.body, 'input') } } };
    }
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Carbon Credit Registry Service', version: API_VERSION },
    components: {
      securitySchemes: {
        appJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'RS256 JWT signed by the app (iss = app id)' },
        accessToken: { type: 'http', scheme: 'bearer', description: 'App or installation access token' },
      },
    },
    paths,
  };
}

export function serveOpenApi(app: Hono): void {
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', (c) => c.json((document ??= buildOpenApiDocument())));
}

// Requests built from an OpenAPI document alone, for openapi.test.ts: the document's shapes as that
// test reads them, a request made of each operation's own examples, and every way to break exactly
// one constraint the document states (a parameter's or a body field's type, bounds, length, pattern,
// enum, a required field), each with the statuses that count as refusing it.
import { expect } from 'vitest';

export type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  examples?: unknown[];
  anyOf?: { required: string[] }[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
}
export interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: Schema } } };
  security: Record<string, string[]>[];
  'x-required-permission'?: string;
  'x-organization-parameter'?: string;
}
export interface Document {
  openapi: string;
  info: { license?: { name: string } };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

export interface Request {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** undefined: no body sent */
  body: unknown;
}

const exampleOf = (schema: Schema): unknown => schema.examples?.[0];

export function exampleRequest(op: Operation): Request {
  const request: Request = { path: {}, query: {}, headers: {}, body: undefined };
  for (const p of op.parameters) {
    if (p.in === 'query' && p.style === 'form' && p.explode && p.schema.type === 'object') {
      // a form-exploded object: each property is its own query parameter
      for (const [name, value] of Object.entries(objectExample(p.schema))) request.query[name] = String(value);
      continue;
    }
    const example = exampleOf(p.schema) ?? (p.schema.enum as unknown[] | undefined)?.[0] ?? p.schema.default;
    if (example === undefined) {
      expect(p.required, `${op.operationId}: required parameter ${p.name} has no example`).toBe(false);
      continue;
    }
    (p.in === 'path' ? request.path : p.in === 'query' ? request.query : request.headers)[p.name] =
      typeof example === 'string' ? example : JSON.stringify(example);
  }
  if (op.requestBody) {
    const schema = op.requestBody.content['application/json'].schema;
    request.body = schema.type === 'object' ? objectExample(schema) : {};
  }
  return request;
}

/** The object's own example, else one built from its properties' examples. */
function objectExample(schema: Schema): Record<string, unknown> {
  const own = exampleOf(schema);
  if (own !== undefined) return structuredClone(own) as Record<string, unknown>;
  const built: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const example = property.type === 'object' ? objectExample(property) : exampleOf(property);
    if (example !== undefined) built[name] = example;
  }
  return built;
}

/** Requests that break the organization parameter itself: sent as they are. */
export const brokenParams = new WeakSet<Request>();

interface Breach {
  what: string;
  apply(request: Request): void;
  /** The statuses that count as refusing it. */
  refusedWith: number[];
}

/** Values that break one keyword of a schema (undefined: the keyword cannot be broken by a value). */
function breakingValues(schema: Schema, onWire: 'json' | 'text'): { keyword: string; value: unknown }[] {
  const out: { keyword: string; value: unknown }[] = [];
  const text = (v: unknown) => (onWire === 'text' ? String(v) : v);
  switch (schema.type) {
    case 'integer':
      out.push({ keyword: 'type integer', value: text(1.5) });
      break;
    case 'number':
      out.push({ keyword: 'type number', value: 'abc' });
      break;
    case 'string':
      if (onWire === 'json') out.push({ keyword: 'type string', value: 12345 });
      break;
    case 'object':
      out.push({ keyword: 'type object', value: 'not an object' });
      break;
    default:
      break;
  }
  const big = (n: number) => (Number.isSafeInteger(n) ? (BigInt(n) + 1n).toString() : String(n * 2));
  if (typeof schema.minimum === 'number') out.push({ keyword: 'minimum', value: text(schema.minimum - 1) });
  if (typeof schema.maximum === 'number')
    out.push({ keyword: 'maximum', value: onWire === 'text' ? big(schema.maximum) : schema.maximum + 1 });
  if (typeof schema.exclusiveMinimum === 'number') out.push({ keyword: 'exclusiveMinimum', value: text(schema.exclusiveMinimum) });
  if (typeof schema.multipleOf === 'number') out.push({ keyword: 'multipleOf', value: text(1 + schema.multipleOf / 10) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    out.push({ keyword: 'minLength', value: 'x'.repeat(schema.minLength - 1) });
  if (typeof schema.maxLength === 'number') out.push({ keyword: 'maxLength', value: 'x'.repeat(schema.maxLength + 1) });
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const value = ['~', ' ', 'zz', '0x', '1.5'].find((candidate) => !pattern.test(candidate));
    expect(value, `no value breaks pattern ${schema.pattern}`).toBeDefined();
    out.push({ keyword: `pattern ${schema.pattern}`, value });
  }
  if (Array.isArray(schema.enum)) out.push({ keyword: 'enum', value: 'not-one-of-them' });
  return out;
}

/** Every single-constraint breach of one body object, at `at` (a path into the body). */
function bodyBreaches(schema: Schema, at: string[]): Breach[] {
  const breaches: Breach[] = [];
  const setAt = (body: unknown, path: string[], change: (parent: Record<string, unknown>, key: string) => void) => {
    let node = body as Record<string, unknown>;
    for (const key of path.slice(0, -1)) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    change(node, path[path.length - 1]!);
  };
  for (const name of schema.required ?? []) {
    breaches.push({
      what: `body.${[...at, name].join('.')} missing (required)`,
      apply: (r) => setAt(r.body, [...at, name], (parent, key) => delete parent[key]),
      refusedWith: [400],
    });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = [...at, name];
    for (const { keyword, value } of breakingValues(property, 'json')) {
      breaches.push({
        what: `body.${path.join('.')} breaking ${keyword} with ${JSON.stringify(value).slice(0, 40)}`,
        apply: (r) =>
          setAt(r.body, path, (parent, key) => {
            parent[key] = value;
          }),
        refusedWith: [400],
      });
    }
    if (property.type === 'object') {
      // an optional object absent from the example is filled in first, so its own fields can be broken
      const filled = objectExample(property);
      for (const breach of bodyBreaches(property, path)) {
        breaches.push({
          ...breach,
          apply: (r) => {
            setAt(r.body, path, (parent, key) => {
              parent[key] ??= structuredClone(filled);
            });
            breach.apply(r);
          },
        });
      }
    }
  }
  return breaches;
}

export function breaches(op: Operation): Breach[] {
  const out: Breach[] = [];
  for (const p of op.parameters) {
    const bucket = (r: Request) => (p.in === 'path' ? r.path : p.in === 'query' ? r.query : r.headers);
    if (p.in === 'query' && p.style === 'form' && p.explode && p.schema.type === 'object') {
      const names = Object.keys(p.schema.properties ?? {});
      if (p.schema.anyOf) {
        out.push({
          what: `query without any of ${p.schema.anyOf.map((a) => a.required.join('+')).join(' | ')}`,
          apply: (r) => names.forEach((n) => delete r.query[n]),
          refusedWith: [400],
        });
      }
      for (const [name, property] of Object.entries(p.schema.properties ?? {})) {
        for (const { keyword, value } of breakingValues(property, 'text')) {
          out.push({ what: `query ${name} breaking ${keyword}`, apply: (r) => void (r.query[name] = String(value)), refusedWith: [400] });
        }
      }
      continue;
    }
    const isOrganization = p.in === 'path' && p.name === op['x-organization-parameter'];
    for (const { keyword, value } of breakingValues(p.schema, 'text')) {
      // an empty path segment is another URL (no route): not something a request can carry
      if (p.in === 'path' && value === '') continue;
      out.push({
        what: `${p.in} ${p.name} breaking ${keyword} with ${JSON.stringify(value).slice(0, 40)}`,
        apply: (r) => {
          bucket(r)[p.name] = String(value);
          if (isOrganization) brokenParams.add(r);
        },
        // for the organization parameter, the permission check answers first (docs/api.md, order of checks)
        refusedWith: isOrganization ? [400, 403] : [400],
      });
    }
    if (p.required && p.in === 'query') {
      out.push({ what: `query ${p.name} missing (required)`, apply: (r) => delete r.query[p.name], refusedWith: [400] });
    }
  }
  if (op.requestBody) out.push(...bodyBreaches(op.requestBody.content['application/json'].schema, []));
  return out;
}

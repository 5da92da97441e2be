// Pieces every request's pipeline shares (app.ts for all endpoints, operator-pipeline.ts for the
// operator's): the error body, validation with zod's messages, and the role check.
import { STATUS_CODES } from 'node:http';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { EndpointDefinition } from '@shared/registry/endpoints';
import { roleAtLeast } from '@shared/registry/vocabulary';
import { zodMessages } from '@platform/zod-messages';
import type { Caller } from '../auth/caller';
import { forbidden, RegistryError } from '../errors';
import { refuseUnstorableText } from './storable-text';

export function errorBody(status: number, message: string | string[]) {
  return { statusCode: status, message, error: STATUS_CODES[status] ?? 'Error' };
}

export function errorResponse<C extends Context>(c: C, status: number, message: string | string[], headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json(errorBody(status, message), status as 400);
}

/** A refusal's message as the error body holds it: one string, or the list when there are several. */
export const messageOf = (error: RegistryError): string | string[] => (error.messages.length === 1 ? error.messages[0]! : error.messages);

/**
 * A path's parameters or its query, refused with 400 where they hold text that cannot be kept as
 * sent (storable-text.ts), then parsed. A body has been checked for such text as it was parsed
 * (json-body.ts, before anything read it): `parseOrThrow` alone, so it is walked once.
 */
export function parseParamsOrQuery<S extends z.ZodType>(schema: S, value: unknown, where: 'params' | 'query'): z.output<S> {
  refuseUnstorableText(value, where);
  return parseOrThrow(schema, value, where);
}

/** The value parsed by `schema`, or 400 with zod's messages in words, each naming where (`body.fullName: …`). */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new RegistryError('bad_request', zodMessages(result.error.issues, where));
  return result.data;
}

/** The query schema for these path parameters: the parameter value's own, when the endpoint has one. */
export function querySchemaOf(endpoint: EndpointDefinition, params: unknown): z.ZodType {
  const by = endpoint.queryByParam;
  return by?.queries[String((params as Record<string, unknown>)[by.param])] ?? endpoint.query;
}

/** The operator's role must reach the endpoint's; otherwise 403. */
export function checkRole(endpoint: EndpointDefinition, caller: Caller): void {
  if (endpoint.auth.kind !== 'operator') return;
  if (caller.kind !== 'operator') throw forbidden('Operator endpoints need an operator token');
  if (!roleAtLeast(caller.role, endpoint.auth.role)) {
    throw forbidden(`This needs the ${endpoint.auth.role} role; operator ${caller.operatorId} is a ${caller.role}`);
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

// Seed-interface answers checked as the client checks them (the contract's tolerant schemas), with
// the compiled shape check first (shape-check.ts): an answer sent exactly as its schema describes it
// is used as parsed, and only anything else goes through zod (which drops unknown fields or refuses
// it, naming what broke the contract). The sync reads thousands of them: a project's details and
// credits each, and every page of the lists.
import type { z } from 'zod';
import { endpoints, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { tolerant } from '@shared/registry/resources';
import type { RegistryClient } from '../client/registry-client';
import type { ClientResponse } from '../client/responses';
import { compileShapeCheck } from './shape-check';

const checks = new Map<EndpointId, (value: unknown) => boolean>();

/** The compiled check of endpoint `id`'s answers (true: exactly what zod would answer for it). */
export function exactAnswerCheck(id: EndpointId): (value: unknown) => boolean {
  let check = checks.get(id);
  if (!check) {
    const schema = (endpoints[id] as unknown as EndpointDefinition).response(tolerant);
    checks.set(id, (check = compileShapeCheck(schema)));
  }
  return check;
}

/** Endpoint `id`'s answer `text`, checked: as `client.parse` answers it, mostly without zod. */
export function parseSeedAnswer<K extends EndpointId>(client: Pick<RegistryClient, 'parse'>, id: K, text: string): ClientResponse<K> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return client.parse(id, text); // not JSON: the client's own error
  }
  return exactAnswerCheck(id)(value) ? (value as ClientResponse<K>) : client.parse(id, text);
}

const itemChecks = new Map<string, { schema: z.ZodType; exact: (value: unknown) => boolean }>();

/**
 * A page of a list endpoint (`key`: its array member). A page passing the compiled check whole is
 * used as parsed; otherwise the rest of the page (with an empty list) must pass it, and each item is
 * used as parsed when it passes, or as zod answers it when not (a redacted retirement's fields come in
 * another order than its schema's). Anything zod refuses is the client's own error for the page.
 */
export function parseSeedPage<K extends EndpointId>(
  client: Pick<RegistryClient, 'parse'>,
  id: K,
  text: string,
  key: string,
): ClientResponse<K> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return client.parse(id, text);
  }
  if (exactAnswerCheck(id)(value)) return value as ClientResponse<K>;
  const page = value as Record<string, unknown> | null;
  const items = typeof page === 'object' && page !== null ? page[key] : undefined;
  if (!Array.isArray(items) || !exactAnswerCheck(id)({ ...page, [key]: [] })) return client.parse(id, text);
  let item = itemChecks.get(`${id}.${key}`);
  if (!item) {
    const shape = ((endpoints[id] as unknown as EndpointDefinition).response(tolerant) as z.ZodObject).shape;
    const schema = (shape[key] as z.ZodArray).element as z.ZodType;
    itemChecks.set(`${id}.${key}`, (item = { schema, exact: compileShapeCheck(schema) }));
  }
  const checked: unknown[] = [];
  for (const raw of items) {
    if (item.exact(raw)) checked.push(raw);
    else {
      const result = item.schema.safeParse(raw);
      if (!result.success) return client.parse(id, text); // throws, naming what broke the contract
      checked.push(result.data);
    }
  }
  return { ...page, [key]: checked } as ClientResponse<K>;
}

// The shapes every entry of the endpoint table shares: who may call it, its parameters, and
// the helpers each area uses to define its entries.
import { z } from 'zod';
import type { ResourceSchemas } from '../resources';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type OperatorRole, type RequiredPermission } from '../vocabulary';
import * as inputs from '../operator-inputs';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Who may call an endpoint.
 * - `appJwt`: the app's own signed JWT (section 5.1).
 * - `accessToken`: any access token; `permission` narrows it (section 5.5); `organizationParam` names
 *   the path parameter holding the organization an installation token must belong to.
 */
export type EndpointAuth =
  | { kind: 'appJwt' }
  | { kind: 'accessToken'; permission?: RequiredPermission; organizationParam?: string }
  /** An operator's own signed JWT (iss = operator id): only to get an operator token. */
  | { kind: 'operatorJwt' }
  /** An operator token of an active operator whose role is at least `role`. */
  | { kind: 'operator'; role: OperatorRole };

/**
 * A refusal an operation answers to a request its document allows: a rule JSON Schema cannot state
 * (a record that must exist, a state it must be in, a rule across fields). Said in words.
 */
export interface Refusal {
  status: 400 | 404 | 409;
  /** When, as a clause after "refused when": e.g. "the organization does not exist". */
  when: string;
}

export interface EndpointDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** The contract's path, with `{name}` parameters. */
  path: string;
  summary: string;
  /** What a client must know beyond the summary and the schemas (the operation's description). */
  description?: string;
  /**
   * Every 4xx the operation answers to a request that matches its schemas, besides the rules of
   * every request (authentication, role, body size, Idempotency-Key, refusal budget). Given for the
   * operator interface's writes: /openapi.json then lists exactly these statuses and says when.
   */
  refusals?: Refusal[];
  params: P;
  query: Q;
  /** `undefined` when the endpoint takes no body. */
  body?: B;
  /** The success body, built from either the strict or the tolerant resource schemas. */
  response: (s: ResourceSchemas) => R;
  /** `application/pdf` answers are files; everything else is JSON. */
  responseType?: 'json' | 'pdf';
  auth: EndpointAuth;
  tags: string[];
  /**
   * A body that depends on a path parameter's value (e.g. `transfer_retire` requires
   * `retirementData`): the server validates with the value's schema, and /openapi.json lists one
   * path per value.
   */
  bodyByParam?: { param: string; bodies: Record<string, z.ZodType> };
  /**
   * A query that depends on a path parameter's value (a preview takes the fields of the write it
   * previews): the server validates with the value's schema, and /openapi.json lists one path per
   * value. `query` stays the union of them all (the handler's type).
   */
  queryByParam?: { param: string; queries: Record<string, z.ZodType> };
  /** The success status; 200 unless said otherwise (201 for operator creations). */
  status?: 200 | 201;
  /**
   * Operator writes: the audit log's name for the action. Such an endpoint leaves one audit entry
   * per attempt past authentication and honours `Idempotency-Key`.
   */
  audit?: string;
}

// ---- parameter helpers -------------------------------------------------------------------------

/**
 * What /openapi.json says of a query-string integer: on the wire it is text, but clients and tools
 * should see an integer with its bounds (the generator puts these in place of the text schema).
 */
export const queryIntegers = z.registry<{ minimum: number; maximum: number; example: number; description: string }>();

/**
 * A query-string integer: digits only, without sign, spaces or leading zeros (compatibility.md:
 * `05`, ` 5` and `-0` are 400), so one number has one spelling.
 */
export const queryInt = (min: number, example: number, description: string) => {
  const digits = z
    .string()
    .regex(/^(?:0|[1-9][0-9]*)$/, 'must be a whole number written in digits only (no sign, spaces or leading zeros)');
  queryIntegers.add(digits, { minimum: min, maximum: Number.MAX_SAFE_INTEGER, example, description });
  return digits.transform(Number).pipe(z.number().int().min(min).max(Number.MAX_SAFE_INTEGER));
};

/** `limit` is clamped to the cap rather than refused: clients ask for large pages and page on. */
export const limitParam = queryInt(1, DEFAULT_PAGE_SIZE, `Page size; larger values are clamped to ${MAX_PAGE_SIZE}`)
  .transform((n) => Math.min(n, MAX_PAGE_SIZE))
  .optional()
  .default(DEFAULT_PAGE_SIZE);
const pageParam = queryInt(0, 0, 'Page number, from 0').optional().default(0);

export const pageQuery = z.object({ limit: limitParam, page: pageParam });
export const optionalPageQuery = pageQuery;
export const noQuery = z.object({});
export const noParams = z.object({});
export const EXAMPLE_UUID = '5fe79b21-6e82-4c4a-92c1-1ee309742f5f';
export const EXAMPLE_CREDIT_ID = 'exPost-1-0x5b1d2b3c4e5f60718293a4b5c6d7e8f901234567';

/** An id, taken exactly as sent (never trimmed: ` x` is not `x`); empty is refused. */
export const idString = (name: string, example = EXAMPLE_UUID) =>
  z
    .string()
    .min(1, `${name} must not be empty`)
    .max(200)
    .meta({ examples: [example] });

/**
 * The cursor of a keyset-paged operator list (the audit log, a credit's trail), as /openapi.json
 * states it: opaque, handed out as the previous page's `nextCursor`, and never expiring (the lists
 * are append-only, so a position in one stays a position).
 */
export const cursorParam = (list: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .meta({
      description:
        `Opaque: the nextCursor of the previous page of ${list}, passed back unchanged with the same other parameters; ` +
        'absent for the first page. It never expires: the next page starts right after the last entry of the previous one, ' +
        'whatever was added since. A value this registry could not have handed out is 400 (start again without one).',
    });
/** `nextCursor` in a keyset-paged answer. */
export const nextCursor = () =>
  z.string().nullable().meta({ description: 'The cursor of the next page (pass it back unchanged as cursor); null on the last page' });

export const developmentQuery = z.object({ development: z.string().optional() });

export const define = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: EndpointDefinition<P, Q, B, R>,
): EndpointDefinition<P, Q, B, R> => e;

export const anyToken: EndpointAuth = { kind: 'accessToken' };
/** A real RSA public key, for the examples of the bodies that take one. */
export const EXAMPLE_PUBLIC_KEY_PEM =
  '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtZ796P5xtDIUBufLkG7c\nHrmS5rxH3CqGuJ4P+NiIInuj5K2gT1/xN7K8wrmIOHAid2D5svnU+RE303Nhgb+f\nMJLEU60e4AzGbvLMUZklsjAvDisV3IqAkzFqt0Bi/DNV3Y6rR6Q29OvwJ6lLAZaQ\n//7j4tS63+pT+Z+sTZDART2+FhgT28mBkm2m1xwoiJmsEDSnUl/LOPsbsOsKa8c8\nkCVqRhu4k7PMl6vWTXIKDGxcoCFs/48HLbSk24k6oiob3yaQF892rDbkCbf4kEtV\nWPrIPltVOynCBCDOYR747vmYHJSLfWnQvXvDY+ddgZEl27m9AaZ4RRMdUFEB+U+N\nwwIDAQAB\n-----END PUBLIC KEY-----\n';
export const warehouseMoveExample = inputs.warehouseMoveInput.meta({
  examples: [{ organizationId: EXAMPLE_UUID, creditId: EXAMPLE_CREDIT_ID, amount: 10 }],
});
export const viewer: EndpointAuth = { kind: 'operator', role: 'viewer' };
export const manager: EndpointAuth = { kind: 'operator', role: 'manager' };
export const administrator: EndpointAuth = { kind: 'operator', role: 'administrator' };
/** An ISO date-time in a query string, as epoch milliseconds. */
export const isoTime = z.iso.datetime({ offset: true }).transform((t) => Date.parse(t));

// The one table of the registry's HTTP interface. The server builds its routes, validation and
// permission checks from it; the desk's typed client builds its calls from it; /openapi.json is
// generated from it. Adding an endpoint anywhere else is a bug.
import { z } from 'zod';
import { AmountError, tonnesToGrams } from './amounts';
import * as inputs from './operator-inputs';
import { PREVIEW_OPERATIONS, previewQuery } from './operator-previews';
import { operatorResources } from './operator-resources';
import { priceInfoSchema } from './price';
import type { ResourceSchemas } from './resources';
import {
  AUDIT_OUTCOMES,
  DEFAULT_FEED_LIMIT,
  DEFAULT_PAGE_SIZE,
  FEED_INVENTORY_ACCOUNTS,
  FEED_ITEM_TYPES,
  FEED_KEY_KINDS,
  MAX_FEED_LIMIT,
  FINISH_ACTIONS,
  MAX_PAGE_SIZE,
  PROJECT_STATUSES,
  type OperatorRole,
  type RequiredPermission,
} from './vocabulary';

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
const queryInt = (min: number, example: number, description: string) => {
  const digits = z
    .string()
    .regex(/^(?:0|[1-9][0-9]*)$/, 'must be a whole number written in digits only (no sign, spaces or leading zeros)');
  queryIntegers.add(digits, { minimum: min, maximum: Number.MAX_SAFE_INTEGER, example, description });
  return digits.transform(Number).pipe(z.number().int().min(min).max(Number.MAX_SAFE_INTEGER));
};

/** `limit` is clamped to the cap rather than refused: clients ask for large pages and page on. */
const limitParam = queryInt(1, DEFAULT_PAGE_SIZE, `Page size; larger values are clamped to ${MAX_PAGE_SIZE}`)
  .transform((n) => Math.min(n, MAX_PAGE_SIZE))
  .optional()
  .default(DEFAULT_PAGE_SIZE);
const pageParam = queryInt(0, 0, 'Page number, from 0').optional().default(0);

export const pageQuery = z.object({ limit: limitParam, page: pageParam });
const optionalPageQuery = pageQuery;
const noQuery = z.object({});
const noParams = z.object({});
const EXAMPLE_UUID = '5fe79b21-6e82-4c4a-92c1-1ee309742f5f';
const EXAMPLE_CREDIT_ID = 'exPost-1-0x5b1d2b3c4e5f60718293a4b5c6d7e8f901234567';

/** An id, taken exactly as sent (never trimmed: ` x` is not `x`); empty is refused. */
const idString = (name: string, example = EXAMPLE_UUID) =>
  z
    .string()
    .min(1, `${name} must not be empty`)
    .max(200)
    .meta({ examples: [example] });

const developmentQuery = z.object({ development: z.string().optional() });

// ---- bodies --------------------------------------------------------------------------------------

/** The largest amount one request may move: a billion tonnes, far below where grams lose precision. */
export const MAX_AMOUNT_TONNES = 1_000_000_000;

const wholeGrams = (tonnes: number) => {
  try {
    tonnesToGrams(tonnes);
    return true;
  } catch (error) {
    if (error instanceof AmountError) return false;
    throw error;
  }
};

/** Tonnes as a JSON number: positive, at most MAX_AMOUNT_TONNES, in whole grams (0.000001 t). */
const tonnes = z
  .number({ error: 'must be a number' })
  .finite()
  .positive('must be greater than 0')
  .max(MAX_AMOUNT_TONNES, `must be at most ${MAX_AMOUNT_TONNES}`)
  // Checked exactly on the decimal digits (zod's multipleOf misjudges numbers like 1.5e-7);
  // the document states it as multipleOf.
  .refine(wholeGrams, 'must be a whole number of grams (a multiple of 0.000001 t)')
  .meta({ examples: [12.5], multipleOf: 0.000001 });

export const reserveBody = z
  .object({
    creditId: idString('creditId', EXAMPLE_CREDIT_ID),
    amount: tonnes,
  })
  .meta({ examples: [{ creditId: EXAMPLE_CREDIT_ID, amount: 12.5 }] });

/** Text that must say something: not empty, not only whitespace. */
const someText = (max: number) => z.string().min(1, 'must not be empty').regex(/\S/, 'must not be blank').max(max);

const walletAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 40-hex-digit wallet address')
  .meta({ examples: ['0x90Ccf5545F5f0EEb3Ca35b5a35040Eb756Ecc4f6'] });

const retirementData = z.object({
  reason: someText(500).trim(),
  beneficiaryName: someText(300).trim(),
  comment: z.string().max(2000).optional(),
});

const finishFields = {
  receiverId: idString('receiverId'),
  receiverAddress: walletAddress.optional(),
  transferComment: z.string().max(2000).optional(),
  priceInfo: priceInfoSchema.optional(),
};
const finishExample = { receiverId: EXAMPLE_UUID, transferComment: 'Sold to a client', priceInfo: { price: 12.3, currency: 'EUR' } };
const retirementExample = { reason: 'Voluntary offset', beneficiaryName: 'Ada Lovelace', comment: 'Offsetting 2024 travel' };

/** The finish body of either action; `transfer_retire` requires `retirementData` (finishRetireBody). */
export const finishBody = z
  .object({ ...finishFields, retirementData: retirementData.optional() })
  .meta({ examples: [{ ...finishExample, retirementData: retirementExample }] });

/** The finish body of `transfer_retire`: the retirement's data is required. */
export const finishRetireBody = z
  .object({ ...finishFields, retirementData })
  .meta({ examples: [{ ...finishExample, retirementData: retirementExample }] });

/** A signature as hex: 64 or 65 bytes, `0x` optional. */
export const SIGNATURE_PATTERN = /^(?:0x)?(?:[0-9a-fA-F]{2}){64,65}$/;

const finalizeExample = {
  signer: '0x90Ccf5545F5f0EEb3Ca35b5a35040Eb756Ecc4f6',
  // a real signature of the example's signedData by the example signer
  signature:
    '0x8e4d4f84dba6f356448982961f151c7ab7035a0406808e905f4db6f9b7935c9138f78a71525a01636ab87073bca5c27be64a0c88cffd2a1059cabb4b14ecba371b',
  signedData: {
    beneficiary: 'Ada Lovelace',
    comment: 'Offsetting 2024 travel',
    reason: 'Voluntary offset',
    projectAddress: '0x5b1d2b3c4e5f60718293a4b5c6d7e8f901234567',
    tokenId: '1',
  },
};

export const finalizeBody = z
  .object({
    signer: walletAddress,
    // 65 bytes (r, s, v) or the 64-byte compact form, as hex with or without `0x` (some client
    // libraries print signatures bare); one normal form (`0x`, lower case) from here on.
    signature: z
      .string()
      .regex(SIGNATURE_PATTERN, 'must be a 64- or 65-byte signature in hex, with or without 0x')
      .transform((s) => `0x${s.replace(/^0x/, '').toLowerCase()}`),
    // Never trimmed or otherwise transformed: the signature covers these exact strings.
    signedData: z.object({
      beneficiary: someText(300),
      comment: z.string().max(2000),
      reason: someText(500),
      projectAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed contract address'),
      tokenId: z.string().regex(/^[0-9]+$/, 'must be a decimal token id'),
    }),
  })
  .meta({ examples: [finalizeExample] });

/** The app endpoints take no body; a `{}` (or anything) sent is ignored. */
const emptyBody = z.unknown().optional();

// ---- the table -----------------------------------------------------------------------------------

const define = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: EndpointDefinition<P, Q, B, R>,
): EndpointDefinition<P, Q, B, R> => e;

const anyToken: EndpointAuth = { kind: 'accessToken' };
/** A real RSA public key, for the examples of the bodies that take one. */
const EXAMPLE_PUBLIC_KEY_PEM =
  '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtZ796P5xtDIUBufLkG7c\nHrmS5rxH3CqGuJ4P+NiIInuj5K2gT1/xN7K8wrmIOHAid2D5svnU+RE303Nhgb+f\nMJLEU60e4AzGbvLMUZklsjAvDisV3IqAkzFqt0Bi/DNV3Y6rR6Q29OvwJ6lLAZaQ\n//7j4tS63+pT+Z+sTZDART2+FhgT28mBkm2m1xwoiJmsEDSnUl/LOPsbsOsKa8c8\nkCVqRhu4k7PMl6vWTXIKDGxcoCFs/48HLbSk24k6oiob3yaQF892rDbkCbf4kEtV\nWPrIPltVOynCBCDOYR747vmYHJSLfWnQvXvDY+ddgZEl27m9AaZ4RRMdUFEB+U+N\nwwIDAQAB\n-----END PUBLIC KEY-----\n';
const warehouseMoveExample = inputs.warehouseMoveInput.meta({
  examples: [{ organizationId: EXAMPLE_UUID, creditId: EXAMPLE_CREDIT_ID, amount: 10 }],
});
const viewer: EndpointAuth = { kind: 'operator', role: 'viewer' };
const manager: EndpointAuth = { kind: 'operator', role: 'manager' };
const administrator: EndpointAuth = { kind: 'operator', role: 'administrator' };
/** An ISO date-time in a query string, as epoch milliseconds. */
const isoTime = z.iso.datetime({ offset: true }).transform((t) => Date.parse(t));

export const endpoints = {
  // 4.1 Projects
  listProjects: define({
    method: 'GET',
    path: '/projects',
    summary: 'Public projects with a verified organization',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(s.project) }),
    auth: anyToken,
    tags: ['projects'],
  }),
  listInternalProjects: define({
    method: 'GET',
    path: '/projects/internal',
    summary: 'All projects as seen in the registry application',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(s.project) }),
    auth: { kind: 'accessToken', permission: 'examiner:read' },
    tags: ['projects'],
  }),
  getInternalProject: define({
    method: 'GET',
    path: '/projects/internal/{projectId}',
    summary: 'One project with its events',
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    response: (s) => s.object({ project: s.internalProject }),
    auth: { kind: 'accessToken', permission: 'examiner:read' },
    tags: ['projects'],
  }),
  findProject: define({
    method: 'GET',
    path: '/projects/find/project',
    summary: 'The project that issued a credit, by serialization or credit id',
    params: noParams,
    query: z
      .object({
        serialization: idString('serialization', 'RDR-KEN-1-1-1-P-1-2021').optional(),
        creditId: idString('creditId', EXAMPLE_CREDIT_ID).optional(),
      })
      .refine((q) => q.serialization !== undefined || q.creditId !== undefined, {
        message: 'serialization or creditId is required',
      })
      // the refinement, as the document states it
      .meta({ anyOf: [{ required: ['serialization'] }, { required: ['creditId'] }] }),
    response: (s) => s.project,
    auth: anyToken,
    tags: ['projects'],
  }),
  getProject: define({
    method: 'GET',
    path: '/projects/{id}',
    summary: 'A public project by id, in the list envelope the interface shows',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(s.project) }),
    auth: anyToken,
    tags: ['projects'],
  }),

  // 4.2 Retirements, v1
  listRetirementsV1: define({
    method: 'GET',
    path: '/v1/retirements',
    summary: 'Retirements, newest first',
    params: noParams,
    query: optionalPageQuery,
    response: (s) => s.object({ retirements: z.array(s.retirement), pagination: s.pagination }),
    auth: anyToken,
    tags: ['retirements'],
  }),
  getRetirementV1: define({
    method: 'GET',
    path: '/v1/retirements/{id}',
    summary: 'One retirement',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ retirement: s.retirement }),
    auth: anyToken,
    tags: ['retirements'],
  }),
  listEntityRetirementsV1: define({
    method: 'GET',
    path: '/v1/{id}/retirements',
    summary: 'Retirements of an entity: an organization, a project or a wallet address',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ retirements: z.array(s.retirement) }),
    auth: anyToken,
    tags: ['retirements'],
  }),

  // 4.3 Retirements, unversioned
  listRetirements: define({
    method: 'GET',
    path: '/retirements/list',
    summary: 'Retirements, newest first, by skip and first',
    params: noParams,
    query: z.object({
      skip: queryInt(0, 0, 'Retirements to skip, newest first').optional().default(0),
      first: queryInt(1, DEFAULT_PAGE_SIZE, `How many to answer; larger values are clamped to ${MAX_PAGE_SIZE}`)
        .transform((n) => Math.min(n, MAX_PAGE_SIZE))
        .optional()
        .default(DEFAULT_PAGE_SIZE),
    }),
    response: (s) => s.object({ retirements: z.array(s.retirement) }),
    auth: anyToken,
    tags: ['retirements'],
  }),
  getRetirement: define({
    method: 'GET',
    path: '/retirements',
    summary: 'One retirement by id (query parameter)',
    params: noParams,
    query: z.object({ id: idString('id') }),
    response: (s) => s.retirement,
    auth: anyToken,
    tags: ['retirements'],
  }),
  getRetirementPdf: define({
    method: 'GET',
    path: '/retirements/{retirementId}/pdf',
    summary: 'The retirement certificate as a PDF download',
    params: z.object({ retirementId: idString('retirementId') }),
    query: noQuery,
    response: () => z.instanceof(Uint8Array),
    responseType: 'pdf',
    auth: anyToken,
    tags: ['retirements'],
  }),
  finalizeRetirement: define({
    method: 'POST',
    path: '/retirements/finalize',
    summary: 'Claim an on-chain retirement with a wallet signature',
    params: noParams,
    query: noQuery,
    body: finalizeBody,
    response: (s) => s.retirement,
    auth: anyToken,
    tags: ['retirements'],
  }),

  // 4.4 Credits
  getProjectCredits: define({
    method: 'GET',
    path: '/carbonCredits/projects/{id}',
    summary: 'Credit summary and issuance events of a project, by vintage',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => projectCreditsResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),
  getBufferInventory: define({
    method: 'GET',
    path: '/carbonCredits/icr/inventory/buffer',
    summary: 'The registry buffer account',
    params: noParams,
    query: noQuery,
    response: (s) => inventoryResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),
  getAdjustmentInventory: define({
    method: 'GET',
    path: '/carbonCredits/icr/inventory/adjustment',
    summary: 'The registry adjustment account',
    params: noParams,
    query: noQuery,
    response: (s) => inventoryResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),
  getOrganizationInventory: define({
    method: 'GET',
    path: '/carbonCredits/icr/inventory/organization',
    summary: "The registry's own organization account",
    params: noParams,
    query: noQuery,
    response: (s) => inventoryResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),

  // 4.5 Organization warehouse
  getWarehouseInventory: define({
    method: 'GET',
    path: '/organizations/{id}/warehouse/inventory',
    summary: "Credits available in an organization's warehouse",
    params: z.object({ id: idString('id') }),
    query: developmentQuery,
    response: (s) => warehouseInventoryResponse(s),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:read', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  listReservations: define({
    method: 'GET',
    path: '/organizations/{id}/warehouse/inventory/reservations',
    summary: 'All reservations: active, expired and finished, newest first',
    params: z.object({ id: idString('id') }),
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, reservations: z.array(s.reservation) }),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:read', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  createReservation: define({
    method: 'POST',
    path: '/organizations/{id}/warehouse/inventory/reservations',
    summary: 'Reserve credits for 10 minutes',
    params: z.object({ id: idString('id') }),
    query: developmentQuery,
    body: reserveBody,
    response: (s) => s.object({ id: z.string(), creditId: z.string(), serialization: z.string(), amount: z.number() }),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:write', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  getReservation: define({
    method: 'GET',
    path: '/organizations/{id}/warehouse/inventory/reservations/{reservationId}',
    summary: 'One reservation',
    params: z.object({ id: idString('id'), reservationId: idString('reservationId') }),
    query: noQuery,
    response: (s) => s.reservation,
    auth: { kind: 'accessToken', permission: 'organization_warehouse:read', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  cancelReservation: define({
    method: 'DELETE',
    path: '/organizations/{id}/warehouse/inventory/reservations/{reservationId}',
    summary: 'Cancel an active reservation',
    params: z.object({ id: idString('id'), reservationId: idString('reservationId') }),
    query: noQuery,
    response: (s) => s.reservation,
    auth: { kind: 'accessToken', permission: 'organization_warehouse:write', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  finishReservation: define({
    method: 'POST',
    path: '/organizations/{id}/warehouse/inventory/reservations/{reservationId}/{action}',
    summary: 'Finish a reservation: transfer, or transfer and retire',
    params: z.object({
      id: idString('id'),
      reservationId: idString('reservationId'),
      action: z.enum(FINISH_ACTIONS, { error: `action must be one of ${FINISH_ACTIONS.join(', ')}` }),
    }),
    query: noQuery,
    body: finishBody,
    bodyByParam: { param: 'action', bodies: { transfer: finishBody, transfer_retire: finishRetireBody } },
    response: (s) => s.object({ success: z.boolean(), transactionId: z.string(), state: z.string() }),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:write', organizationParam: 'id' },
    tags: ['warehouse'],
  }),

  // 4.6 Apps
  createAppAccessToken: define({
    method: 'POST',
    path: '/app/accessTokens',
    summary: 'An app access token, for endpoints that do not touch organization resources',
    params: noParams,
    query: noQuery,
    body: emptyBody,
    response: (s) => s.accessToken,
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),
  createInstallationAccessToken: define({
    method: 'POST',
    path: '/app/installations/{installationId}/accessTokens',
    summary: 'An installation access token for one organization',
    params: z.object({ installationId: idString('installationId') }),
    query: noQuery,
    body: emptyBody,
    response: (s) => s.accessToken,
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),
  revokeAccessToken: define({
    method: 'DELETE',
    path: '/app/installations/token',
    summary: 'Revoke the access token sent in the Authorization header',
    params: noParams,
    query: noQuery,
    response: (s) => s.object({ success: z.literal(true) }),
    auth: anyToken,
    tags: ['apps'],
  }),
  listInstallations: define({
    method: 'GET',
    path: '/app/installations',
    summary: "The app's installations",
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, installations: z.array(s.installation) }),
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),
  getInstallation: define({
    method: 'GET',
    path: '/app/installations/{installationId}',
    summary: 'One installation of the app',
    params: z.object({ installationId: idString('installationId') }),
    query: noQuery,
    response: (s) => s.installation,
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),

  // 4.7 Organizations
  getOrganizationV1: define({
    method: 'GET',
    path: '/v1/organizations/{id}',
    summary: 'An organization record',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ organization: s.organization }),
    auth: anyToken,
    tags: ['organizations'],
  }),

  // Beyond the interface: the changes feed (the desk's incremental sync; README "The changes feed")
  getChanges: define({
    method: 'GET',
    path: '/sync/v1/changes',
    summary: 'What changed since a cursor, as the caller may see it: resources in the shapes of their endpoints, and removals',
    params: noParams,
    query: z.object({
      cursor: z
        .string()
        .max(400)
        .optional()
        .meta({ description: 'The cursor of the previous answer; absent or empty: a snapshot of everything visible' }),
      limit: queryInt(
        1,
        DEFAULT_FEED_LIMIT,
        `Resources per answer, at most (a page ends before a second account inventory); larger values are clamped to ${MAX_FEED_LIMIT}`,
      )
        .transform((n) => Math.min(n, MAX_FEED_LIMIT))
        .optional()
        .default(DEFAULT_FEED_LIMIT),
      kinds: z
        .string()
        .regex(new RegExp(`^(${FEED_KEY_KINDS.join('|')})(,(${FEED_KEY_KINDS.join('|')}))*$`), {
          error: `a comma-separated list of ${FEED_KEY_KINDS.join(', ')}`,
        })
        .optional()
        .meta({
          description: `Only these kinds of resource (comma-separated: ${FEED_KEY_KINDS.join(', ')}); absent: all. A cursor goes on with the kinds it was read with.`,
        }),
    }),
    response: (s) => changesResponse(s),
    auth: anyToken,
    tags: ['sync'],
  }),

  // Operator interface (the registry's back office)
  createOperatorToken: define({
    method: 'POST',
    path: '/operator/v1/tokens',
    summary: "An operator token (1 hour), for a JWT signed with the operator's private key",
    params: noParams,
    query: noQuery,
    body: emptyBody,
    response: (s) => operatorResources(s).operatorToken,
    auth: { kind: 'operatorJwt' },
    tags: ['operator'],
    status: 201,
  }),
  operatorGetSelf: define({
    method: 'GET',
    path: '/operator/v1/me',
    summary: "The calling operator's own account (its name and role), for any role",
    params: noParams,
    query: noQuery,
    response: (s) => s.object({ operator: operatorResources(s).operator }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorListOrganizations: define({
    method: 'GET',
    path: '/operator/v1/organizations',
    summary: 'Every organization, public or not, with its accounts and balances, projects and installations',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, organizations: z.array(operatorResources(s).organization) }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorGetOrganization: define({
    method: 'GET',
    path: '/operator/v1/organizations/{organizationId}',
    summary: 'One organization with its accounts and balances, projects and installations',
    params: z.object({ organizationId: idString('organizationId') }),
    query: noQuery,
    response: (s) => s.object({ organization: operatorResources(s).organization }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreateOrganization: define({
    method: 'POST',
    path: '/operator/v1/organizations',
    summary: 'Create an organization',
    params: noParams,
    query: noQuery,
    body: inputs.createOrganizationInput.meta({
      examples: [{ fullName: 'Kenya Growers Ltd', countryCode: 'KE', type: 'projectProponent' }],
    }),
    response: (s) => s.object({ organization: operatorResources(s).organization }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'organizations.create',
  }),
  operatorUpdateOrganization: define({
    method: 'PATCH',
    path: '/operator/v1/organizations/{organizationId}',
    summary: 'Edit an organization: every field given replaces the stored one (null clears an optional one)',
    params: z.object({ organizationId: idString('organizationId') }),
    query: noQuery,
    body: inputs.updateOrganizationBody.meta({
      examples: [{ fullName: 'Kenya Growers Ltd', city: 'Nairobi', website: null }],
    }),
    response: (s) => s.object({ id: z.string(), changed: z.array(z.string()) }),
    auth: manager,
    tags: ['operator'],
    audit: 'organizations.update',
  }),
  operatorSetOrganizationVerified: define({
    method: 'POST',
    path: '/operator/v1/organizations/{organizationId}/verification',
    summary: "Record (or withdraw) an organization's business verification",
    params: z.object({ organizationId: idString('organizationId') }),
    query: noQuery,
    body: inputs.setOrganizationVerifiedInput.omit({ organizationId: true }).meta({ examples: [{ verified: true }] }),
    response: (s) => s.object({ id: z.string(), verified: z.boolean() }),
    auth: manager,
    tags: ['operator'],
    audit: 'organizations.setVerified',
  }),
  operatorListProjects: define({
    method: 'GET',
    path: '/operator/v1/projects',
    summary: 'Every project, any status, with its status history',
    params: noParams,
    query: pageQuery.extend({ status: z.enum(PROJECT_STATUSES).optional() }),
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(operatorResources(s).project) }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorGetProject: define({
    method: 'GET',
    path: '/operator/v1/projects/{projectId}',
    summary: "One project, any status, with its status history and every field of the interface's project",
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    response: (s) => s.object({ project: operatorResources(s).project, details: s.project }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreateProject: define({
    method: 'POST',
    path: '/operator/v1/projects',
    summary: 'Create a project with its proponents, validators, documents and benefits',
    params: noParams,
    query: noQuery,
    body: inputs.createProjectInput.meta({
      examples: [
        {
          fullName: 'Kilimanjaro Reforestation',
          startDate: '2021-01-01',
          creditingPeriodStartDate: '2021-06-01',
          countryCode: 'KE',
          sector: { id: 'forestry', title: 'Forestry and land use' },
          methodology: { id: 'icr-ar-001', title: 'Afforestation and reforestation' },
          type: { id: 'removal', title: 'Removal', description: 'Removes CO2' },
          organizationId: EXAMPLE_UUID,
        },
      ],
    }),
    response: (s) => s.object({ id: z.string(), num: z.string(), contractAddress: z.string() }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'projects.create',
  }),
  operatorUpdateProject: define({
    method: 'PATCH',
    path: '/operator/v1/projects/{projectId}',
    summary: 'Edit a draft project: every field given replaces the stored one (null clears an optional one)',
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    body: inputs.updateProjectBody.meta({
      examples: [
        {
          fullName: 'Kilimanjaro Reforestation II',
          location: { lat: -3.07, lng: 37.35 },
          documentation: [{ uri: 'https://example.org/pdd.pdf', type: 'projectDesign', name: 'Project design', isPublic: true }],
        },
      ],
    }),
    response: (s) => s.object({ id: z.string(), num: z.string(), changed: z.array(z.string()) }),
    auth: manager,
    tags: ['operator'],
    audit: 'projects.update',
  }),
  operatorSetProjectStatus: define({
    method: 'POST',
    path: '/operator/v1/projects/{projectId}/status',
    summary: 'Move a project to another status (allowed changes only)',
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    body: inputs.changeProjectStatusInput
      .omit({ projectId: true })
      .meta({ examples: [{ status: 'submitted', comment: 'Project design document complete' }] }),
    response: (s) => s.object({ id: z.string(), status: z.string(), previousStatus: z.string(), eventId: z.string() }),
    auth: manager,
    tags: ['operator'],
    audit: 'projects.setStatus',
  }),
  operatorIssueCredits: define({
    method: 'POST',
    path: '/operator/v1/issuances',
    summary: "Issue credits of a vintage to the proponent's inventory, with the buffer share",
    params: noParams,
    query: noQuery,
    body: inputs.issueCreditsInput.meta({
      examples: [
        {
          projectId: EXAMPLE_UUID,
          vintage: '2023',
          amount: 1000,
          monitoringPeriodStart: '2023-01-01',
          monitoringPeriodEnd: '2023-12-31',
          verificationBodyId: EXAMPLE_UUID,
        },
      ],
    }),
    response: (s) =>
      s.object({
        creditId: z.string(),
        serialization: z.string(),
        eventId: z.string(),
        toInventory: z.number().int(),
        toBuffer: z.number().int(),
      }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.issue',
  }),
  operatorDeposit: define({
    method: 'POST',
    path: '/operator/v1/warehouse/deposits',
    summary: "Move credits from an organization's inventory into its warehouse",
    params: noParams,
    query: noQuery,
    body: warehouseMoveExample,
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'warehouse.deposit',
  }),
  operatorWithdraw: define({
    method: 'POST',
    path: '/operator/v1/warehouse/withdrawals',
    summary: "Move unreserved credits from an organization's warehouse back to its inventory",
    params: noParams,
    query: noQuery,
    body: warehouseMoveExample,
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'warehouse.withdraw',
  }),
  operatorTransfer: define({
    method: 'POST',
    path: '/operator/v1/transfers',
    summary: 'Move credits between accounts (inventories, buffer, adjustment, registry, wallets)',
    params: noParams,
    query: noQuery,
    body: inputs.transferCreditsInput.meta({
      examples: [
        { from: { kind: 'inventory', organizationId: EXAMPLE_UUID }, to: { kind: 'adjustment' }, creditId: EXAMPLE_CREDIT_ID, amount: 10 },
      ],
    }),
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.transfer',
  }),
  operatorCancel: define({
    method: 'POST',
    path: '/operator/v1/cancellations',
    summary: 'Cancel credits held in an account',
    params: noParams,
    query: noQuery,
    body: inputs.cancelCreditsInput.meta({
      examples: [{ from: { kind: 'adjustment' }, creditId: EXAMPLE_CREDIT_ID, amount: 10, reason: 'Double issuance corrected' }],
    }),
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.cancel',
  }),
  operatorRetire: define({
    method: 'POST',
    path: '/operator/v1/retirements',
    summary: "Retire credits from an organization's inventory for a beneficiary",
    params: noParams,
    query: noQuery,
    body: inputs.retireFromInventoryInput.meta({
      examples: [
        {
          organizationId: EXAMPLE_UUID,
          creditId: EXAMPLE_CREDIT_ID,
          amount: 2.5,
          beneficiary: 'Acme Corp',
          reason: 'Offsetting 2024 business travel',
        },
      ],
    }),
    response: (s) => s.object({ retirementId: z.string() }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.retire',
  }),
  operatorRecordOnchainRetirement: define({
    method: 'POST',
    path: '/operator/v1/onchain-retirements',
    summary: 'Record a retirement a wallet made on chain (unclaimed until the wallet finalizes it)',
    params: noParams,
    query: noQuery,
    body: inputs.recordOnchainRetirementInput.meta({
      examples: [{ walletAddress: '0x90Ccf5545F5f0EEb3Ca35b5a35040Eb756Ecc4f6', creditId: EXAMPLE_CREDIT_ID, amount: 1 }],
    }),
    response: (s) => s.object({ retirementId: z.string(), walletAddress: z.string(), projectAddress: z.string(), tokenId: z.string() }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'retirements.recordOnchain',
  }),
  operatorListAccounts: define({
    method: 'GET',
    path: '/operator/v1/accounts',
    summary: 'Every account with its balances',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, accounts: z.array(operatorResources(s).account) }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreditHistory: define({
    method: 'GET',
    path: '/operator/v1/ledger',
    summary: 'The ledger history of one credit, by credit id or serialization, oldest first',
    params: noParams,
    query: z
      .object({
        creditId: idString('creditId', EXAMPLE_CREDIT_ID).optional(),
        serialization: idString('serialization', 'RDR-KEN-1-1-1-P-1-2021').optional(),
      })
      .refine((q) => q.serialization !== undefined || q.creditId !== undefined, { message: 'serialization or creditId is required' })
      .meta({ anyOf: [{ required: ['serialization'] }, { required: ['creditId'] }] }),
    response: (s) => operatorResources(s).creditHistory,
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreditTrail: define({
    method: 'GET',
    path: '/operator/v1/ledger/trail',
    summary:
      'Where the tonnes of one credit went: every ledger movement from issuance to now, oldest first, each with the audit entry that made it',
    params: noParams,
    query: z
      .object({
        creditId: idString('creditId', EXAMPLE_CREDIT_ID).optional(),
        serialization: idString('serialization', 'RDR-KEN-1-1-1-P-1-2021').optional(),
        limit: limitParam,
        cursor: z.string().trim().min(1).max(100).optional(),
      })
      .refine((q) => q.serialization !== undefined || q.creditId !== undefined, { message: 'serialization or creditId is required' })
      .meta({ anyOf: [{ required: ['serialization'] }, { required: ['creditId'] }] }),
    response: (s) => operatorResources(s).creditTrail,
    auth: viewer,
    tags: ['operator'],
  }),
  operatorPreview: define({
    method: 'GET',
    path: '/operator/v1/previews/{operation}',
    summary:
      "A dry run of a ledger write (the write's body as query fields, accounts as kind:id): what it would create and every balance before → after; nothing is written or audited",
    params: z.object({ operation: z.enum(PREVIEW_OPERATIONS) }),
    query: previewQuery,
    response: (s) => operatorResources(s).preview,
    auth: manager,
    tags: ['operator'],
  }),
  operatorListApps: define({
    method: 'GET',
    path: '/operator/v1/apps',
    summary: 'Every app with its installations',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, apps: z.array(operatorResources(s).app) }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreateApp: define({
    method: 'POST',
    path: '/operator/v1/apps',
    summary: 'Register an app with its RSA public key',
    params: noParams,
    query: noQuery,
    body: inputs.createAppInput.meta({ examples: [{ name: 'Acme Marketplace', publicKeyPem: EXAMPLE_PUBLIC_KEY_PEM }] }),
    response: (s) => s.object({ id: z.string(), name: z.string(), nameId: z.string() }),
    auth: administrator,
    tags: ['operator'],
    status: 201,
    audit: 'apps.create',
  }),
  operatorSetExaminer: define({
    method: 'POST',
    path: '/operator/v1/apps/{appId}/examiner',
    summary: "Grant or revoke an app's examiner:read",
    params: z.object({ appId: idString('appId') }),
    query: noQuery,
    body: inputs.grantExaminerInput.omit({ appId: true }).meta({ examples: [{ granted: true }] }),
    response: (s) => s.object({ appId: z.string(), examinerRead: z.boolean() }),
    auth: administrator,
    tags: ['operator'],
    audit: 'apps.setExaminer',
  }),
  operatorInstallApp: define({
    method: 'POST',
    path: '/operator/v1/installations',
    summary: 'Install an app on an organization with permissions',
    params: noParams,
    query: noQuery,
    body: inputs.installAppInput.meta({
      examples: [{ appId: EXAMPLE_UUID, organizationId: EXAMPLE_UUID, permissions: { organization_warehouse: 'VIEW' } }],
    }),
    response: (s) => s.object({ id: z.string() }),
    auth: administrator,
    tags: ['operator'],
    status: 201,
    audit: 'installations.create',
  }),
  operatorSetInstallationStatus: define({
    method: 'POST',
    path: '/operator/v1/installations/{installationId}/status',
    summary: 'Suspend or resume an installation (its tokens stop or work again at once)',
    params: z.object({ installationId: idString('installationId') }),
    query: noQuery,
    body: inputs.setInstallationStatusInput.omit({ installationId: true }).meta({ examples: [{ status: 'suspended' }] }),
    response: (s) => s.object({ id: z.string(), status: z.string() }),
    auth: administrator,
    tags: ['operator'],
    audit: 'installations.setStatus',
  }),
  operatorRemoveInstallation: define({
    method: 'DELETE',
    path: '/operator/v1/installations/{installationId}',
    summary: 'Remove an installation and its tokens',
    params: z.object({ installationId: idString('installationId') }),
    query: noQuery,
    response: (s) => s.object({ id: z.string(), removed: z.literal(true) }),
    auth: administrator,
    tags: ['operator'],
    audit: 'installations.remove',
  }),
  operatorListOperators: define({
    method: 'GET',
    path: '/operator/v1/operators',
    summary: 'Every operator account',
    params: noParams,
    query: noQuery,
    response: (s) => s.object({ operators: z.array(operatorResources(s).operator) }),
    auth: administrator,
    tags: ['operator'],
  }),
  operatorCreateOperator: define({
    method: 'POST',
    path: '/operator/v1/operators',
    summary: 'Create an operator account with its RSA public key',
    params: noParams,
    query: noQuery,
    body: inputs.createOperatorInput.meta({ examples: [{ name: 'Ada Admin', role: 'viewer', publicKeyPem: EXAMPLE_PUBLIC_KEY_PEM }] }),
    response: (s) => s.object({ operator: operatorResources(s).operator }),
    auth: administrator,
    tags: ['operator'],
    status: 201,
    audit: 'operators.create',
  }),
  operatorSetOperatorActive: define({
    method: 'POST',
    path: '/operator/v1/operators/{operatorId}/active',
    summary: 'Disable (its tokens stop at once) or enable an operator account',
    params: z.object({ operatorId: idString('operatorId') }),
    query: noQuery,
    body: inputs.setOperatorActiveInput.omit({ operatorId: true }).meta({ examples: [{ active: true }] }),
    response: (s) => s.object({ operator: operatorResources(s).operator }),
    auth: administrator,
    tags: ['operator'],
    audit: 'operators.setActive',
  }),
  operatorSearchAudit: define({
    method: 'GET',
    path: '/operator/v1/audit',
    summary: 'The audit log, newest first, filtered by operator, action, target, outcome and time',
    params: noParams,
    query: z.object({
      limit: limitParam,
      cursor: z.string().trim().min(1).max(100).optional(),
      operatorId: z.string().trim().min(1).max(200).optional(),
      action: z.string().trim().min(1).max(100).optional(),
      targetId: z.string().trim().min(1).max(300).optional(),
      outcome: z.enum(AUDIT_OUTCOMES).optional(),
      from: isoTime.optional(),
      to: isoTime.optional(),
    }),
    response: (s) => s.object({ entries: z.array(operatorResources(s).auditEntry), nextCursor: z.string().nullable() }),
    auth: viewer,
    tags: ['operator'],
  }),
} as const;

function inventoryResponse(s: ResourceSchemas) {
  return s.object({ summary: s.inventorySummary, organization: s.organizationSummary, credits: z.array(s.inventoryCredit) });
}

function warehouseInventoryResponse(s: ResourceSchemas) {
  return s.object({ credits: z.array(s.warehouseInventoryCredit), organizationId: z.string() });
}

function projectCreditsResponse(s: ResourceSchemas) {
  return s.object({
    summary: s.creditSummary,
    vintages: z.array(s.object({ events: z.array(s.creditEvent), vintage: z.string(), summary: s.creditSummary })),
    project: s.projectReference,
  });
}

/**
 * One changed resource in the feed, in the exact shape its own endpoint answers: `project` as a row
 * of GET /projects, `internalProject` as GET /projects/internal/{id}'s `project`, `projectCredits`
 * as GET /carbonCredits/projects/{id}, `retirement` as a row of GET /v1/retirements, `inventory` as
 * GET /carbonCredits/icr/inventory/{account}, `warehouse` as the warehouse inventory with every
 * reservation (newest first), `organization` as GET /v1/organizations/{id}'s `organization`.
 */
export function feedItem(s: ResourceSchemas) {
  return z.discriminatedUnion('type', [
    s.object({ type: z.literal('project'), project: s.project }),
    s.object({ type: z.literal('internalProject'), project: s.internalProject }),
    s.object({ type: z.literal('projectCredits'), id: z.string(), credits: projectCreditsResponse(s) }),
    s.object({ type: z.literal('retirement'), retirement: s.retirement }),
    s.object({ type: z.literal('inventory'), account: z.enum(FEED_INVENTORY_ACCOUNTS), inventory: inventoryResponse(s) }),
    s.object({
      type: z.literal('warehouse'),
      organizationId: z.string(),
      inventory: warehouseInventoryResponse(s),
      reservations: z.array(s.reservation),
    }),
    s.object({ type: z.literal('organization'), organization: s.organization }),
  ]);
}

function changesResponse(s: ResourceSchemas) {
  return s.object({
    changes: z.array(feedItem(s)),
    /** What left the caller's view (deleted, or no longer visible to it) since the cursor; never in a snapshot. */
    removed: z.array(s.object({ type: z.enum(FEED_ITEM_TYPES), id: z.string() })),
    /** Where the next request starts; with `more` false the caller is up to date. */
    cursor: z.string(),
    more: z.boolean(),
  });
}

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;
export const endpointIds = Object.keys(endpoints) as EndpointId[];

export type EndpointParams<K extends EndpointId> = z.output<Endpoints[K]['params']>;
export type EndpointQuery<K extends EndpointId> = z.output<Endpoints[K]['query']>;
/** The parsed body of an endpoint that takes one (`undefined` for those that take none). */
export type EndpointBody<K extends EndpointId> = Endpoints[K] extends { body?: infer B }
  ? B extends z.ZodType
    ? z.output<B>
    : undefined
  : undefined;
export type EndpointResponse<K extends EndpointId> = z.output<ReturnType<Endpoints[K]['response']>>;

/** Fills `{name}` parameters of a contract path. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

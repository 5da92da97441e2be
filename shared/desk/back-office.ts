// The back office's desk contract: the renderer's screens read and write the registry's operator
// endpoints (/operator/v1/...) through three desk methods instead of one method per endpoint:
// - backOffice.session: who the desk acts as (operator name and role), whether it is online, how old
//   the data is, and per operator endpoint whether the operator may call it now (and why not);
// - backOffice.read: a GET operator row, through the registry client (validated by the row's own
//   schemas), or from the back-office cache when the registry cannot be reached;
// - backOffice.write / backOffice.settle: a write with the renderer's idempotency key, answered as
//   done, refused (a plain sentence) or unsure; settle re-sends the same key and body to learn
//   which it was (the registry replays its stored answer).
// Screens name endpoints by their row of shared/registry/endpoints.ts; the data they get back is that
// row's tolerant response (BackOfficeData<E>).
import { z } from 'zod';
import { endpointIds, endpoints, type EndpointId, type EndpointResponse } from '../registry/endpoints';
import { MAX_PAGE_SIZE, OPERATOR_ROLES } from '../registry/vocabulary';

/** Every operator row of the endpoint table, except the token exchange (the desk does that itself). */
export type OperatorEndpointName = Extract<EndpointId, `operator${string}`>;

/** The operator rows that read (GET): backOffice.read. */
export const OPERATOR_READS = [
  'operatorGetSelf',
  'operatorListOrganizations',
  'operatorGetOrganization',
  'operatorListProjects',
  'operatorGetProject',
  'operatorListAccounts',
  'operatorCreditHistory',
  'operatorCreditTrail',
  'operatorPreview',
  'operatorListApps',
  'operatorListOperators',
  'operatorSearchAudit',
] as const satisfies readonly OperatorEndpointName[];

/**
 * Reads whose answer is only true at the moment they are made (a dry run of a write): never kept
 * for offline use nor re-read after a write; offline they fail with a sentence.
 */
export const OPERATOR_READS_NOT_KEPT: readonly OperatorEndpointName[] = ['operatorPreview'];

/** The operator rows that write (audited, idempotent): backOffice.write and backOffice.settle. */
export const OPERATOR_WRITES = [
  'operatorCreateOrganization',
  'operatorUpdateOrganization',
  'operatorSetOrganizationVerified',
  'operatorCreateProject',
  'operatorUpdateProject',
  'operatorSetProjectStatus',
  'operatorIssueCredits',
  'operatorDeposit',
  'operatorWithdraw',
  'operatorTransfer',
  'operatorCancel',
  'operatorRetire',
  'operatorRecordOnchainRetirement',
  'operatorCreateApp',
  'operatorSetExaminer',
  'operatorInstallApp',
  'operatorSetInstallationStatus',
  'operatorRemoveInstallation',
  'operatorCreateOperator',
  'operatorSetOperatorActive',
] as const satisfies readonly OperatorEndpointName[];

export type OperatorReadName = (typeof OPERATOR_READS)[number];
export type OperatorWriteName = (typeof OPERATOR_WRITES)[number];

// Every operator row is exactly one of the two (a row added to the table and not here fails the typecheck).
type Missing = Exclude<OperatorEndpointName, OperatorReadName | OperatorWriteName>;
const everyRowListed: [Missing] extends [never] ? true : { missing: Missing } = true;
void everyRowListed;

/** The operator endpoint names, in the table's order. */
export const OPERATOR_ENDPOINT_NAMES = endpointIds.filter((id) => endpoints[id].auth.kind === 'operator') as OperatorEndpointName[];
const operatorEndpointName = z.enum([...OPERATOR_READS, ...OPERATOR_WRITES]);

/** What a row answers on success (the desk's tolerant reading of it). */
export type BackOfficeData<E extends OperatorEndpointName> = EndpointResponse<E>;

/**
 * The page size of every paged operator list the back office reads: the desk's sync saves these
 * pages, so a screen reading the same pages finds them offline.
 */
export const BACK_OFFICE_PAGE_SIZE = MAX_PAGE_SIZE;

// ---- session -------------------------------------------------------------------------------------

export const backOfficeAllowance = z.union([
  z.object({ allowed: z.literal(true) }),
  z.object({ allowed: z.literal(false), reason: z.string() }),
]);
export type BackOfficeAllowance = z.infer<typeof backOfficeAllowance>;

export const backOfficeOperator = z.object({ id: z.string(), name: z.string(), role: z.enum(OPERATOR_ROLES) });
export type BackOfficeOperator = z.infer<typeof backOfficeOperator>;

export const backOfficeSession = z.object({
  /** Whether the back office can be used with the active connection (it has an operator account). */
  available: z.boolean(),
  /** Why not, with how to fix it, when it is not available. */
  reason: z.string().optional(),
  operator: backOfficeOperator.optional(),
  online: z.boolean(),
  /** When the back-office data was last read from the registry (ISO time), null before any. */
  syncedAt: z.string().nullable(),
  /** Per operator endpoint: may the operator call it now (role and reachability), and if not why. */
  can: z.record(operatorEndpointName, backOfficeAllowance),
});
export type BackOfficeSession = z.infer<typeof backOfficeSession>;

// ---- read, write, settle -------------------------------------------------------------------------

/** Path parameters by name, as the row's path names them. */
const params = z.record(z.string().max(100), z.string().max(300));
/** Query values as the URL carries them (numbers are written out). */
const query = z.record(z.string().max(100), z.union([z.string().max(1000), z.number()]));

export const backOfficeReadInput = z.object({
  endpoint: z.enum(OPERATOR_READS),
  params: params.optional(),
  query: query.optional(),
});
export type BackOfficeReadInput = z.input<typeof backOfficeReadInput>;

export const backOfficeReadOutput = z.object({
  data: z.unknown(),
  /** `cache`: the registry could not be reached; this is the answer as last read. */
  source: z.enum(['registry', 'cache']),
  /** When `data` was read from the registry (ISO time). */
  fetchedAt: z.string(),
});

/** An Idempotency-Key: made once per confirmed action by the renderer (crypto.randomUUID()). */
export const idempotencyKey = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const backOfficeWriteInput = z.object({
  endpoint: z.enum(OPERATOR_WRITES),
  params: params.optional(),
  /** The row's body, validated by the row's schema in the desk (omit it for rows without one). */
  body: z.unknown().optional(),
  idempotencyKey,
});
export type BackOfficeWriteInput = z.input<typeof backOfficeWriteInput>;

export const backOfficeWriteOutput = z.discriminatedUnion('outcome', [
  /** The registry did it; `data` is the row's answer. */
  z.object({ outcome: z.literal('done'), data: z.unknown() }),
  /** The registry refused it (nothing changed); `message` is a plain sentence. */
  z.object({ outcome: z.literal('refused'), status: z.number().int(), message: z.string() }),
  /** No answer came back after the bounded retries: it may or may not have happened; settle it. */
  z.object({ outcome: z.literal('unsure'), message: z.string() }),
]);
export type BackOfficeWriteOutput = z.infer<typeof backOfficeWriteOutput>;

/** An organization's ledger movements, newest first, from the back-office cache (fast for long histories). */
export const accountMovementsInput = z.object({
  accountIds: z.array(z.string().min(1).max(200)).min(1).max(50),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(100),
});
export const accountMovementsOutput = z.object({
  total: z.number().int(),
  movements: z.array(
    z.object({
      id: z.number().int(),
      at: z.string(),
      kind: z.string(),
      fromAccountId: z.string().nullable(),
      toAccountId: z.string().nullable(),
      amountGrams: z.number().int(),
      reference: z.string().nullable(),
      creditId: z.string(),
      serialization: z.string(),
    }),
  ),
  /** When the back-office cache was last synced (ISO time), null before any. */
  asOf: z.string().nullable(),
});
export type AccountMovementsOutput = z.infer<typeof accountMovementsOutput>;

/** The event screens reload on: a back-office write was done (and the cache refreshed). */
export const backOfficeChangedEvent = z.object({ type: z.literal('backOffice.changed'), endpoint: z.enum(OPERATOR_WRITES) });

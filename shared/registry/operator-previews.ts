// Dry runs of the operator's ledger writes (issuance, deposit, withdrawal, transfer, cancellation):
// `GET /operator/v1/previews/{operation}` with the write's body as a flat query string. The registry
// runs the real operation in a transaction it rolls back and answers what would happen (the credits
// and serializations, the buffer share, every balance before → after); nothing is written (the
// attempt leaves one audit entry, as every write attempt does). A GET, so a client reads it like
// any other operator read. The desk builds
// the query from the very body it later sends (previewRequestOf), so the preview and the write
// cannot disagree on their input. Shared because the endpoint table is; no Node, no database.
import { z } from 'zod';

export const PREVIEW_OPERATIONS = ['issuance', 'deposit', 'withdrawal', 'transfer', 'cancellation'] as const;
export type PreviewOperation = (typeof PREVIEW_OPERATIONS)[number];

/** The write each preview stands for (the endpoint table's row names). */
export const PREVIEW_OF = {
  operatorIssueCredits: 'issuance',
  operatorDeposit: 'deposit',
  operatorWithdraw: 'withdrawal',
  operatorTransfer: 'transfer',
  operatorCancel: 'cancellation',
} as const satisfies Record<string, PreviewOperation>;
export type PreviewedWrite = keyof typeof PREVIEW_OF;

const field = (example?: string, description?: string) => {
  const text = z.string();
  const meta = { ...(example === undefined ? {} : { examples: [example] }), ...(description === undefined ? {} : { description }) };
  return (Object.keys(meta).length === 0 ? text : text.meta(meta)).optional();
};
const EXAMPLE_ID = '5fe79b21-6e82-4c4a-92c1-1ee309742f5f';
const EXAMPLE_CREDIT = 'exPost-1-0x5b1d2b3c4e5f60718293a4b5c6d7e8f901234567';
const ACCOUNT_TEXT =
  'An account: inventory:<organization id>, warehouse:<organization id>, buffer, adjustment, registry or wallet:<0x address>';

/** Every field any operation's body has, as query text; the operation's own schema then checks them. */
export const previewQuery = z.object({
  projectId: field(EXAMPLE_ID),
  vintage: field('2023'),
  type: field('exPost'),
  amount: field('1000', "Tonnes, written as the write's JSON number"),
  bufferBasisPoints: field(undefined, "Basis points, written as the write's JSON number"),
  monitoringPeriodStart: field('2023-01-01'),
  monitoringPeriodEnd: field('2023-12-31'),
  verificationBodyId: field(EXAMPLE_ID),
  receivingOrganizationId: field(),
  organizationId: field(EXAMPLE_ID),
  creditId: field(EXAMPLE_CREDIT),
  from: field(`inventory:${EXAMPLE_ID}`, ACCOUNT_TEXT),
  to: field('adjustment', ACCOUNT_TEXT),
  reason: field('Double issuance corrected'),
});

/**
 * Each operation's own query: the fields its write's body has, those the write requires required
 * here too. The server checks a preview's query with its operation's (a missing field is 400 either
 * way; a field of another operation is ignored, as it always was), and /openapi.json lists one path
 * per operation with it.
 */
type PreviewField = keyof typeof previewQuery.shape;
const mask = (keys: PreviewField[]) => Object.fromEntries(keys.map((k) => [k, true])) as Partial<Record<PreviewField, true>>;
const only = (required: PreviewField[], optional: PreviewField[] = []) =>
  previewQuery.pick(mask([...required, ...optional])).required(mask(required));
export const previewQueries: Record<PreviewOperation, z.ZodType> = {
  issuance: only(
    ['projectId', 'vintage', 'amount', 'monitoringPeriodStart', 'monitoringPeriodEnd', 'verificationBodyId'],
    ['type', 'bufferBasisPoints', 'receivingOrganizationId'],
  ),
  deposit: only(['organizationId', 'creditId', 'amount']),
  withdrawal: only(['organizationId', 'creditId', 'amount']),
  transfer: only(['from', 'to', 'creditId', 'amount']),
  cancellation: only(['from', 'creditId', 'amount', 'reason']),
};
export type PreviewQuery = z.output<typeof previewQuery>;

export type AccountRefBody =
  | { kind: 'inventory' | 'warehouse'; organizationId: string }
  | { kind: 'buffer' | 'adjustment' | 'registry' }
  | { kind: 'wallet'; address: string };

export const ACCOUNT_REF_TEXT_HELP =
  'must be inventory:<organization id>, warehouse:<organization id>, buffer, adjustment, registry or wallet:<0x address>';

/** An account as one query value: `inventory:<id>`, `warehouse:<id>`, `buffer`, `adjustment`, `registry`, `wallet:<address>`. */
export function accountRefText(ref: AccountRefBody): string {
  switch (ref.kind) {
    case 'inventory':
    case 'warehouse':
      return `${ref.kind}:${ref.organizationId}`;
    case 'wallet':
      return `wallet:${ref.address}`;
    default:
      return ref.kind;
  }
}

/** The account a query value names; undefined when it names none (the caller says what is expected). */
export function parseAccountRefText(text: string): AccountRefBody | undefined {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? text : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  if ((kind === 'buffer' || kind === 'adjustment' || kind === 'registry') && colon < 0) return { kind };
  if ((kind === 'inventory' || kind === 'warehouse') && rest !== '') return { kind, organizationId: rest };
  if (kind === 'wallet' && rest !== '') return { kind, address: rest };
  return undefined;
}

/** Query text of a number that JSON carried (tonnes, basis points): its shortest decimal form. */
const numberText = (n: unknown): string | undefined => (typeof n === 'number' && Number.isFinite(n) ? String(n) : undefined);
const stringText = (s: unknown): string | undefined => (typeof s === 'string' ? s : undefined);

/**
 * The preview request of a write's body: its path parameter and its query. Fields the preview does
 * not need (an issuance's files) are left out; everything else is carried as it is.
 */
export function previewRequestOf(
  write: PreviewedWrite,
  body: Record<string, unknown>,
): { params: { operation: PreviewOperation }; query: Record<string, string> } {
  const pairs: [string, string | undefined][] = [
    ['projectId', stringText(body.projectId)],
    ['vintage', stringText(body.vintage)],
    ['type', stringText(body.type)],
    ['amount', numberText(body.amount)],
    ['bufferBasisPoints', numberText(body.bufferBasisPoints)],
    ['monitoringPeriodStart', stringText(body.monitoringPeriodStart)],
    ['monitoringPeriodEnd', stringText(body.monitoringPeriodEnd)],
    ['verificationBodyId', stringText(body.verificationBodyId)],
    ['receivingOrganizationId', stringText(body.receivingOrganizationId)],
    ['organizationId', stringText(body.organizationId)],
    ['creditId', stringText(body.creditId)],
    ['from', isAccountRef(body.from) ? accountRefText(body.from) : undefined],
    ['to', isAccountRef(body.to) ? accountRefText(body.to) : undefined],
    ['reason', stringText(body.reason)],
  ];
  const query: Record<string, string> = {};
  for (const [key, value] of pairs) if (value !== undefined) query[key] = value;
  return { params: { operation: PREVIEW_OF[write] }, query };
}

function isAccountRef(value: unknown): value is AccountRefBody {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/** A query's number back as the JSON number the write's body would carry (text that is no number stays text, for the schema to refuse). */
export function queryNumber(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text.trim()) ? Number(text) : text;
}

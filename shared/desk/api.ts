// The desk API: everything the renderer asks of the main process, as one table of methods with
// zod schemas for input and output. It is the IPC contract (Electron preload) and the loopback web
// host's contract alike: both carry `invoke(method, input)` and a stream of events, and both sides
// validate against this file.
import { z } from 'zod';
import { auditFilter } from './audit-filter';
import { tolerant } from '../registry/resources';
import { FINISH_ACTIONS, PROJECT_STATUSES } from '../registry/vocabulary';
import { finalizeBody, finishBody } from '../registry/endpoints';
import { warehouseCreditQuery } from './warehouse-list';
import {
  accountMovementsInput,
  accountMovementsOutput,
  backOfficeChangedEvent,
  backOfficeReadInput,
  backOfficeReadOutput,
  backOfficeSession,
  backOfficeWriteInput,
  backOfficeWriteOutput,
} from './back-office';

const id = z.string().trim().min(1).max(200);
const isoTime = z.string();

/** Every read says how fresh it is and whether it came from the cache because the registry is unreachable. */
const freshness = { asOf: isoTime.nullable(), offline: z.boolean() };

export const themeSchema = z.enum(['light', 'dark', 'system']);
export type Theme = z.infer<typeof themeSchema>;

// ---- connections -----------------------------------------------------------------------------------

export const installationInfo = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  permissions: z.record(z.string(), z.string()),
});

/** Tokens must never cross the network in clear: what the desk says when a registry address is refused. */
export const REGISTRY_URL_RULE =
  'A remote registry address must start with https:// (http:// only for a registry on this computer: localhost, 127.0.0.1 or [::1])';

/** Whether `hostname` (as URL.hostname gives it) names this computer: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * An https: address, or an http: one on a loopback host (the embedded and local test registries).
 * Parsed by hand (shared code has no URL global); anything ambiguous (backslashes, whitespace,
 * control characters) is refused rather than read differently from the WHATWG parser.
 */
export function isAllowedRegistryUrl(url: string): boolean {
  if (/[\\\s\u0000-\u001f]/.test(url)) return false;
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(url);
  if (!match) return false;
  const scheme = match[1]!.toLowerCase();
  if (scheme === 'https') return true;
  if (scheme !== 'http') return false;
  const authority = match[2]!;
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = hostAndPort.startsWith('[') ? hostAndPort.slice(0, hostAndPort.indexOf(']') + 1) : hostAndPort.split(':')[0]!;
  return isLoopbackHost(host);
}

export const registryUrl = z.url({ protocol: /^https?$/ }).refine(isAllowedRegistryUrl, REGISTRY_URL_RULE);

/**
 * An app key the user picked: read by the host (Electron's open dialog, or the web host from the
 * uploaded file), never by the page, which holds only this handle until connections.* stores it.
 */
export const keyHandleId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a key handle from the desk');
export const pickedKey = z.object({ handle: keyHandleId, fileName: z.string() });
export type PickedKey = z.infer<typeof pickedKey>;

/**
 * Whether the registry's history verified at the last sync (docs/desk.md): the entries of the last
 * checkpoint the desk verified and the time the registry signed it; `unverifiable` for a registry
 * that publishes no transparency log (not an error); `failed` when it changed since it was verified.
 */
export const historyVerification = z.object({
  state: z.enum(['not_checked', 'verified', 'unverifiable', 'failed']),
  entries: z.number().int().nonnegative().nullable(),
  upTo: isoTime.nullable(),
  checkedAt: isoTime.nullable(),
  message: z.string().nullable(),
  /** Synced records no verified checkpoint covers yet (the next sync's does). */
  pending: z.number().int().nonnegative(),
  /** Failed checks kept as evidence (sync.historyEvidence lists them). */
  evidence: z.number().int().nonnegative(),
});
export type HistoryVerification = z.infer<typeof historyVerification>;

export const historyEvidence = z.object({
  foundAt: isoTime,
  kind: z.string(),
  message: z.string(),
  /** The signed checkpoint verified before, and the one that did not extend it. */
  keptCheckpoint: z.string().nullable(),
  latestCheckpoint: z.string().nullable(),
  /** The proof, leaves or records that show it, as JSON text. */
  proof: z.string().nullable(),
});
export type HistoryEvidence = z.infer<typeof historyEvidence>;

/**
 * The registry's transparency log key (docs/desk.md): the note verifier key it serves at
 * /transparency/v1/key and its fingerprint (SHA-256 of the 32-byte public key, hex, groups of four).
 */
export const logKey = z.object({ key: z.string(), fingerprint: z.string() });
export type LogKey = z.infer<typeof logKey>;
/** A note verifier key a person pasted or reviewed (checked by the desk: `<name>+<hash>+<key>`). */
const logKeyText = z.string().trim().min(1, 'paste the whole key').max(1000);

export const connectionInfo = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['embedded', 'remote']),
  baseUrl: z.string(),
  appId: z.string(),
  /** Whether the app's private key could be read from the secret store. */
  keyStatus: z.enum(['ok', 'missing', 'unreadable', 'invalid']),
  keyMessage: z.string().optional(),
  /** Where the key lives: the OS keychain or the passphrase-encrypted file. */
  secretStore: z.enum(['keychain', 'encrypted-file', 'memory']),
  examinerRead: z.boolean(),
  installations: z.array(installationInfo),
  /** The operator account the desk acts as on the registry's operator endpoints, when it has one. */
  operatorId: z.string().optional(),
  /** The active connection's history verification. */
  history: historyVerification.optional(),
  /** The log key this connection's history is checked against (pinned when it was added, or at its first sync); null: none yet. */
  logKey: logKey.nullable().optional(),
});
export type ConnectionInfo = z.infer<typeof connectionInfo>;

// ---- sync ----------------------------------------------------------------------------------------

export const SYNC_RESOURCES = [
  'projects',
  'internalProjects',
  'projectDetails',
  'credits',
  'inventories',
  'retirements',
  'warehouses',
  'organizations',
] as const;
export const syncResource = z.enum(SYNC_RESOURCES);
export type SyncResource = z.infer<typeof syncResource>;

export const syncProgress = z.object({
  resource: syncResource,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  /** Estimated milliseconds left for the whole run, when it can be estimated. */
  etaMs: z.number().nonnegative().nullable(),
});
export type SyncProgress = z.infer<typeof syncProgress>;

export const syncStatus = z.object({
  running: z.boolean(),
  progress: syncProgress.nullable(),
  lastSuccess: z.record(z.string(), isoTime.nullable()),
  lastError: z.string().nullable(),
  online: z.boolean(),
  /** The oldest successful sync time among the resources shown, i.e. how old the data may be. */
  dataAsOf: isoTime.nullable(),
  /**
   * How many sync runs have ended (finished or failed) in this desk service's life, and which life
   * (a restarted service counts again from 0 under a new id). Statuses and sync events travel on
   * different channels and either can be late or lost: the count tells the page whether a status
   * it reads is older than an end it has already heard, and whether an end happened that it never heard.
   */
  runsEnded: z.object({ service: z.string(), count: z.number().int().nonnegative() }),
  history: historyVerification.optional(),
});
export type SyncStatus = z.infer<typeof syncStatus>;
/** A sync engine's own status: the desk service adds the count of ended runs. */
export type EngineSyncStatus = Omit<SyncStatus, 'runsEnded'>;

// ---- lists ---------------------------------------------------------------------------------------

const paging = { offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(100) };
const sortDirection = z.enum(['asc', 'desc']).default('asc');

export const projectFilters = z.object({
  status: z.enum(PROJECT_STATUSES).optional(),
  countryCode: z.string().length(2).optional(),
  sectorId: z.string().optional(),
  methodologyId: z.string().optional(),
  typeId: z.string().optional(),
  vintage: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
});

export const projectSearchInput = z.object({
  query: z.string().max(200).default(''),
  scope: z.enum(['public', 'internal']).default('public'),
  filters: projectFilters.default({}),
  sort: z
    .object({ field: z.enum(['relevance', 'num', 'name', 'status', 'country', 'startDate']).default('num'), direction: sortDirection })
    .default({ field: 'num', direction: 'asc' }),
  ...paging,
});
export type ProjectSearchInput = z.input<typeof projectSearchInput>;

/** One row of the project list: the fields the list shows and filters on. */
export const projectRow = z.object({
  id: z.string(),
  num: z.string(),
  fullName: z.string(),
  shortDescription: z.string(),
  status: z.string(),
  countryCode: z.string().nullable(),
  sector: z.string(),
  methodology: z.string(),
  type: z.string(),
  proponents: z.string(),
  startDate: isoTime,
  isPublic: z.boolean(),
});
export type ProjectRow = z.infer<typeof projectRow>;

export const facetValue = z.object({ value: z.string(), label: z.string(), count: z.number().int() });
export type FacetValue = z.infer<typeof facetValue>;
export const projectFacets = z.object({
  statuses: z.array(facetValue),
  countries: z.array(facetValue),
  sectors: z.array(facetValue),
  methodologies: z.array(facetValue),
  types: z.array(facetValue),
  vintages: z.array(facetValue),
});

export const retirementFilters = z.object({
  claimed: z.boolean().optional(),
  vintage: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
  projectId: z.string().optional(),
});

export const retirementSearchInput = z.object({
  query: z.string().max(200).default(''),
  filters: retirementFilters.default({}),
  sort: z
    .object({
      field: z.enum(['relevance', 'createdAt', 'amount', 'beneficiary', 'project']).default('createdAt'),
      direction: z.enum(['asc', 'desc']).default('desc'),
    })
    .default({ field: 'createdAt', direction: 'desc' }),
  ...paging,
});
export type RetirementSearchInput = z.input<typeof retirementSearchInput>;

export const retirementRow = z.object({
  id: z.string(),
  createdAt: isoTime,
  isClaimed: z.boolean(),
  amount: z.number(),
  beneficiary: z.string().nullable(),
  reason: z.string().nullable(),
  organizationName: z.string().nullable(),
  projectId: z.string(),
  projectName: z.string(),
  projectNum: z.string(),
  serialization: z.string().nullable(),
  vintage: z.string().nullable(),
});
export type RetirementRow = z.infer<typeof retirementRow>;

/**
 * Set when a search matched more rows than the cache counts exactly (SEARCH_COUNT_LIMIT): `total`
 * is then that limit, a lower bound ("10,000+"); more pages can still be read past it.
 */
export const totalIsLowerBound = z.boolean().optional();
export const SEARCH_COUNT_LIMIT = 10_000;

export const INVENTORY_ACCOUNTS = ['buffer', 'adjustment', 'organization'] as const;
export const inventoryAccount = z.enum(INVENTORY_ACCOUNTS);
export type InventoryAccount = z.infer<typeof inventoryAccount>;

/** An account's summary and holder; its credits are read page by page with inventories.credits. */
export const inventoryView = z.object({
  summary: tolerant.inventorySummary,
  organization: tolerant.organizationSummary,
  /** How many credits the account holds (the registry's answer as last synced). */
  creditCount: z.number().int().nonnegative(),
});

export const INVENTORY_SORT_FIELDS = ['project', 'serialization', 'vintage', 'type', 'amount', 'supply'] as const;
export type InventorySortField = (typeof INVENTORY_SORT_FIELDS)[number];

export const inventoryCreditFilters = z.object({
  vintage: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
  /** A credit type as the registry names it (exPost, exAnte). */
  type: z.string().trim().min(1).max(40).optional(),
  projectId: id.optional(),
});

/** What narrows and orders an account's credit list: the list and its CSV export share it. */
const inventoryCreditQuery = {
  query: z.string().max(200).default(''),
  filters: inventoryCreditFilters.default({}),
  sort: z
    .object({ field: z.enum(INVENTORY_SORT_FIELDS).default('project'), direction: sortDirection })
    .default({ field: 'project', direction: 'asc' }),
};

export const inventoryCreditSearchInput = z.object({ account: inventoryAccount, ...inventoryCreditQuery, ...paging });
export type InventoryCreditSearchInput = z.input<typeof inventoryCreditSearchInput>;

/** One credit of an account's list: the columns the list shows, filters and sorts on. */
export const inventoryCreditRow = z.object({
  id: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  projectNum: z.string(),
  serialization: z.string(),
  vintage: z.string(),
  type: z.string(),
  amount: z.number(),
  supply: z.number(),
  unit: z.string(),
  tokenId: z.string(),
  tokenAddress: z.string(),
});
export type InventoryCreditRow = z.infer<typeof inventoryCreditRow>;

export const inventoryFacets = z.object({ vintages: z.array(facetValue), types: z.array(facetValue) });
export type InventoryFacets = z.infer<typeof inventoryFacets>;

export const projectCredits = z.object({
  summary: tolerant.creditSummary,
  vintages: z.array(z.object({ events: z.array(tolerant.creditEvent), vintage: z.string(), summary: tolerant.creditSummary })),
  project: tolerant.projectReference,
});

/**
 * A file the desk produced (a certificate, a CSV export), kept by the host: the renderer gets only
 * this handle and asks the bridge to save it (native save dialog in Electron, a download in the
 * browser). The desk chose the name; the kind fixes the extension.
 */
export const FILE_KINDS = ['pdf', 'csv', 'zip', 'json'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export const fileHandleId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a file handle from the desk');
export const fileHandle = z.object({ handle: fileHandleId, kind: z.enum(FILE_KINDS), filename: z.string(), size: z.number().int() });
export type FileHandle = z.infer<typeof fileHandle>;

export const csvExportInput = z.discriminatedUnion('list', [
  z.object({ list: z.literal('projects'), search: projectSearchInput }),
  z.object({ list: z.literal('retirements'), search: retirementSearchInput }),
  // The account's list as shown: its search text, filters and sort (every row, not one page).
  z.object({ list: z.literal('inventory'), account: inventoryAccount, ...inventoryCreditQuery }),
  // The warehouse inventory as listed: its search, filters and sort (shared/desk/warehouse-list.ts).
  z.object({ list: z.literal('warehouse'), organizationId: id, ...warehouseCreditQuery.shape }),
  // The back office's audit log with the screen's filters (every entry, newest first).
  z.object({ list: z.literal('audit'), filter: auditFilter }),
]);

export const warehouseView = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  canWrite: z.boolean(),
  credits: z.array(tolerant.warehouseInventoryCredit),
  reservations: z.array(tolerant.reservation),
  /** registry clock − desk clock, in ms, measured from the registry's Date header; countdowns use it. */
  clockOffsetMs: z.number(),
  ...freshness,
});
export type WarehouseView = z.infer<typeof warehouseView>;

// ---- the method table ----------------------------------------------------------------------------

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O, options: { write?: boolean } = {}) => ({
  input,
  output,
  /** Writes need the registry: offline they fail with code `offline` and change nothing. */
  write: options.write ?? false,
});

const none = z.object({}).default({});
const ok = z.object({ ok: z.literal(true) });

export const deskApi = {
  'system.info': method(none, z.object({ version: z.string(), host: z.enum(['electron', 'web']), dataDir: z.string() })),

  'settings.get': method(none, z.object({ theme: themeSchema, syncIntervalMinutes: z.number().int() })),
  'settings.set': method(
    z.object({
      theme: themeSchema.optional(),
      syncIntervalMinutes: z
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .optional(),
    }),
    z.object({ theme: themeSchema, syncIntervalMinutes: z.number().int() }),
  ),

  'connections.list': method(
    none,
    z.object({
      activeId: z.string().nullable(),
      connections: z.array(connectionInfo),
      keychain: z.object({ available: z.boolean(), reason: z.string().optional() }),
    }),
  ),
  'connections.addRemote': method(
    z.object({
      name: z.string().trim().min(1).max(100),
      baseUrl: registryUrl,
      appId: id,
      /** The key file the user picked (DeskBridge.importKeyFile). */
      keyHandle: keyHandleId,
      /** An operator account of that registry and its key file (picked like the app key), for the back office. */
      operator: z.object({ id, keyHandle: keyHandleId }).optional(),
      /** Store the key in a passphrase-encrypted file because no OS keychain is available (user confirmed). */
      encryptedFileFallback: z.object({ passphrase: z.string().min(8).max(1000), userConfirmed: z.literal(true) }).optional(),
      /**
       * The registry's log key as the person reviewed it (connections.logKey), pinned with the
       * connection; refused when the registry serves another. Null: it served none. Left out: the
       * key served now is pinned unreviewed.
       */
      logKey: logKeyText.nullable().optional(),
    }),
    connectionInfo,
  ),
  /** The log key a registry serves now, for a person to review before adding it or starting over; null: it publishes no log. */
  'connections.logKey': method(z.object({ baseUrl: registryUrl }), z.object({ logKey: logKey.nullable() })),
  /**
   * Verify this registry from scratch (docs/desk.md): the person accepts the registry's history as
   * it is now. The desk keeps the evidence, forgets the verified state and the data it synced from
   * this connection, pins `logKey` (as reviewed; refused when the registry serves another) and
   * verifies the whole log again at the next sync.
   */
  'connections.startOver': method(z.object({ id, logKey: logKeyText.nullable() }), connectionInfo),
  'connections.activate': method(z.object({ id }), connectionInfo),
  'connections.remove': method(z.object({ id }), ok),
  'connections.reimportKey': method(z.object({ id, keyHandle: keyHandleId }), connectionInfo),
  /** Opens a passphrase-encrypted key file for this run (after a restart its key is locked). */
  'connections.unlock': method(z.object({ id, passphrase: z.string().min(8).max(1000) }), connectionInfo),
  'connections.refreshInstallations': method(z.object({ id }), connectionInfo, { write: true }),

  'sync.status': method(none, syncStatus),
  'sync.historyEvidence': method(none, z.array(historyEvidence)),
  /** The active connection's evidence as one JSON file (docs/transparency.md, "The evidence file"). */
  'sync.exportEvidence': method(none, fileHandle),
  'sync.run': method(z.object({ resources: z.array(syncResource).optional() }).default({}), z.object({ started: z.boolean() })),

  'projects.search': method(
    projectSearchInput,
    z.object({ total: z.number().int(), totalIsLowerBound, rows: z.array(projectRow), ...freshness }),
  ),
  // Each value counted under the search and the other filters given (none: the whole scope).
  'projects.facets': method(
    z.object({
      scope: z.enum(['public', 'internal']).default('public'),
      query: z.string().max(200).default(''),
      filters: projectFilters.default({}),
    }),
    projectFacets,
  ),
  'projects.get': method(
    z.object({ id }),
    z.object({ project: tolerant.internalProject.or(tolerant.project), credits: projectCredits.nullable(), ...freshness }),
  ),

  'inventories.get': method(z.object({ account: inventoryAccount }), inventoryView.extend(freshness)),
  'inventories.credits': method(
    inventoryCreditSearchInput,
    z.object({ total: z.number().int(), totalIsLowerBound, rows: z.array(inventoryCreditRow), ...freshness }),
  ),
  // Each value counted under the search and the other filters given (none: the whole account).
  'inventories.facets': method(
    z.object({ account: inventoryAccount, query: z.string().max(200).default(''), filters: inventoryCreditFilters.default({}) }),
    inventoryFacets,
  ),

  'retirements.search': method(
    retirementSearchInput,
    z.object({ total: z.number().int(), totalIsLowerBound, rows: z.array(retirementRow), ...freshness }),
  ),
  /** The vintages present, each counted under the search and the other filters given. */
  'retirements.facets': method(
    z.object({ query: z.string().max(200).default(''), filters: retirementFilters.default({}) }),
    z.object({ vintages: z.array(facetValue) }),
  ),
  'retirements.get': method(z.object({ id }), z.object({ retirement: tolerant.retirement, ...freshness })),
  'retirements.finalize': method(finalizeBody.extend({ retirementId: id }), z.object({ retirement: tolerant.retirement }), { write: true }),
  /**
   * What the desk knows for finalizing: the project's contract address and its token ids, and the
   * token the retirement took where the back office's credit histories show it (cache only).
   */
  'retirements.finalizeHints': method(
    z.object({ retirementId: id }),
    z.object({
      projectAddress: z.string().nullable(),
      tokens: z.array(z.object({ tokenId: z.string(), serialization: z.string(), vintage: z.string(), type: z.string() })),
      retiredTokenId: z.string().nullable(),
    }),
  ),
  /** Asks the registry whether `wallet` made this retirement (its wallet's retirements), before anything is signed. */
  'retirements.walletCheck': method(
    z.object({ retirementId: id, wallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a wallet address is 0x and 40 hexadecimal characters') }),
    z.object({ owns: z.boolean() }),
  ),
  /** The embedded demo only: the key of the demo wallet that made this retirement (from demo-credentials.json). */
  'retirements.demoWalletKey': method(
    z.object({ retirementId: id }),
    z.object({ address: z.string(), privateKey: z.string().regex(/^0x[0-9a-f]{64}$/) }),
  ),
  'retirements.certificate': method(z.object({ id }), fileHandle, { write: true }),
  /** Several certificates as one file: one PDF (a retirement a page) or a ZIP of the PDFs. */
  'retirements.certificates': method(z.object({ ids: z.array(id).min(1).max(500), format: z.enum(['pdf', 'zip']) }), fileHandle, {
    write: true,
  }),

  'organizations.list': method(
    none,
    z.object({ organizations: z.array(tolerant.organization.extend({ installed: z.boolean() })), ...freshness }),
  ),

  'warehouse.get': method(z.object({ organizationId: id }), warehouseView),
  'warehouse.reserve': method(
    z.object({ organizationId: id, creditId: id, amount: z.number().positive() }),
    z.object({ id: z.string(), creditId: z.string(), serialization: z.string(), amount: z.number() }),
    { write: true },
  ),
  'warehouse.cancel': method(z.object({ organizationId: id, reservationId: id }), tolerant.reservation, { write: true }),
  'warehouse.finish': method(
    z.object({ organizationId: id, reservationId: id, action: z.enum(FINISH_ACTIONS), body: finishBody }),
    z.object({ success: z.boolean(), transactionId: z.string(), state: z.string() }),
    { write: true },
  ),
  'warehouse.reservation': method(z.object({ organizationId: id, reservationId: id }), tolerant.reservation, { write: true }),

  'export.csv': method(csvExportInput, fileHandle),

  // The back office (shared/desk/back-office.ts): the operator endpoints of the active connection.
  'backOffice.session': method(none, backOfficeSession),
  'backOffice.read': method(backOfficeReadInput, backOfficeReadOutput),
  'backOffice.write': method(backOfficeWriteInput, backOfficeWriteOutput, { write: true }),
  /** Ledger movements of some accounts (an organization's), newest first, from the back-office cache. */
  'backOffice.accountMovements': method(accountMovementsInput, accountMovementsOutput),
  /** Re-sends an `unsure` write with its key and body: the registry replays its answer (or does it once). */
  'backOffice.settle': method(backOfficeWriteInput, backOfficeWriteOutput, { write: true }),
} as const;

export type DeskApi = typeof deskApi;
export type DeskMethod = keyof DeskApi;
export const deskMethods = Object.keys(deskApi) as DeskMethod[];
export type DeskInput<M extends DeskMethod> = z.input<DeskApi[M]['input']>;
export type DeskOutput<M extends DeskMethod> = z.output<DeskApi[M]['output']>;

// ---- errors and events ---------------------------------------------------------------------------

/** Every failure reaches the renderer as one of these, with a message a user can read. */
export const DESK_ERROR_CODES = [
  'invalid_input', // the renderer sent something the contract refuses
  'offline', // a write while the registry is unreachable; nothing happened
  'not_found',
  'conflict', // the registry refused because of state (e.g. reservation expired)
  'forbidden',
  'unauthorized', // the registry refused the app's credentials
  'key_unavailable', // the app's private key cannot be read: re-import it
  'registry_error', // any other registry answer
  'internal',
] as const;
export const deskError = z.object({ code: z.enum(DESK_ERROR_CODES), message: z.string(), details: z.array(z.string()).optional() });
export type DeskError = z.infer<typeof deskError>;

export type DeskResult<T> = { ok: true; value: T } | { ok: false; error: DeskError };

export const deskEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync.progress'), progress: syncProgress }),
  z.object({ type: z.literal('sync.finished'), status: syncStatus }),
  z.object({ type: z.literal('sync.failed'), status: syncStatus, message: z.string() }),
  z.object({ type: z.literal('online.changed'), online: z.boolean() }),
  z.object({ type: z.literal('connections.changed') }),
  /** Settings were saved (by any window or tab): each one shows them, the theme included. */
  z.object({ type: z.literal('settings.changed'), theme: themeSchema, syncIntervalMinutes: z.number().int() }),
  backOfficeChangedEvent,
  /** The back office's cache of the active connection was synced (after a seed sync): its views may know more. */
  z.object({ type: z.literal('backOffice.synced') }),
  z.object({ type: z.literal('reservation.updated'), organizationId: z.string(), reservationId: z.string(), state: z.string() }),
  /** A menu item or its keyboard accelerator (Electron): Find (Ctrl/Cmd+F), go to view 1..6 (Ctrl/Cmd+1..6). */
  z.object({ type: z.literal('menu.command'), command: z.enum(['find', 'navigate']), view: z.number().int().min(1).max(6).optional() }),
]);
export type DeskEvent = z.infer<typeof deskEvent>;

/** What the preload (or the web host's page script) puts on `window.registryDesk`. */
export interface DeskBridge {
  host: 'electron' | 'web';
  invoke<M extends DeskMethod>(method: M, input: DeskInput<M>): Promise<DeskResult<DeskOutput<M>>>;
  onEvent(listener: (event: DeskEvent) => void): () => void;
  /**
   * Lets the user pick the app's private key file and hands it to the desk, not to the page: in
   * Electron a native open dialog in the main process (`file` is ignored); in the browser the
   * chosen `file` is sent to the web host unread. Null when the user cancelled.
   */
  importKeyFile(file?: Blob & { name?: string }): Promise<PickedKey | null>;
  /** Saves a file the desk produced, by its handle: native save dialog in Electron, a download in the browser. */
  saveFile(file: Pick<FileHandle, 'handle'>): Promise<{ saved: boolean; path?: string }>;
  /** The browser desk only: a new one-time launch address, to open the desk in another browser or profile. */
  newLaunchAddress?(): Promise<string>;
}

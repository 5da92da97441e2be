// The desk API: everything the renderer asks of the main process, as one table of methods with
// zod schemas for input and output. It is the IPC contract (Electron preload) and the loopback web
// host's contract alike: both carry `invoke(method, input)` and a stream of events, and both sides
// validate against this file.
import { z } from 'zod';
import { tolerant } from '../registry/resources';
import { FINISH_ACTIONS } from '../registry/vocabulary';
import { finalizeBody, finishBody } from '../registry/endpoints';
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
import { freshness, id } from './field-schemas';
import { type PickedKey, connectionInfo, historyEvidence, keyHandleId, logKey, logKeyText, registryUrl } from './connection-schemas';
import { syncProgress, syncResource, syncStatus } from './sync-schemas';
import {
  type FileHandle,
  csvExportInput,
  facetValue,
  fileHandle,
  inventoryAccount,
  inventoryCreditFilters,
  inventoryCreditRow,
  inventoryCreditSearchInput,
  inventoryFacets,
  inventoryView,
  projectCredits,
  projectFacets,
  projectFilters,
  projectRow,
  projectSearchInput,
  retirementFilters,
  retirementRow,
  retirementSearchInput,
  totalIsLowerBound,
  warehouseView,
} from './list-schemas';

// The schemas of the methods' inputs and outputs, by area: every name of the API is one of this module's.
export * from './connection-schemas';
export * from './sync-schemas';
export * from './list-schemas';

export const themeSchema = z.enum(['light', 'dark', 'system']);
export type Theme = z.infer<typeof themeSchema>;

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

// The enumerated values of the registry, where the interface shows only samples. Each list starts
// with the values the interface shows; the rest are this registry's choices, documented in docs/api.md.

export const API_VERSION = '2023-06-16';
export const API_VERSION_HEADER = 'x-reg-api-version';

/** Page size used when a list request gives no `limit`. */
export const DEFAULT_PAGE_SIZE = 10;
/** Largest page a list answers; a larger `limit` is clamped to it. */
export const MAX_PAGE_SIZE = 100;

/** Resources per answer of the changes feed (a project counts once, with its three items). */
export const DEFAULT_FEED_LIMIT = 1000;
export const MAX_FEED_LIMIT = 5000;

/** The registry accounts as the feed names them (the paths' last segment). */
export const FEED_INVENTORY_ACCOUNTS = ['buffer', 'adjustment', 'organization'] as const;
export const FEED_ITEM_TYPES = [
  'project',
  'internalProject',
  'projectCredits',
  'retirement',
  'inventory',
  'warehouse',
  'organization',
] as const;
export type FeedItemType = (typeof FEED_ITEM_TYPES)[number];
/**
 * The kinds of key the feed follows (a project key answers project, internalProject and
 * projectCredits items); `kinds=` narrows an answer to some of them.
 */
export const FEED_KEY_KINDS = ['project', 'retirement', 'inventory', 'warehouse', 'organization'] as const;
export type FeedKeyKind = (typeof FEED_KEY_KINDS)[number];

export const PROJECT_STATUSES = ['draft', 'submitted', 'validated', 'registered', 'rejected', 'withdrawn'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** Allowed project status changes; every change records a `status_change` project event. */
export const PROJECT_STATUS_TRANSITIONS: Record<ProjectStatus, readonly ProjectStatus[]> = {
  draft: ['submitted', 'withdrawn'],
  submitted: ['validated', 'rejected', 'draft'],
  validated: ['registered', 'withdrawn'],
  registered: ['withdrawn'],
  rejected: ['draft'],
  withdrawn: [],
};

/** Statuses whose projects may be listed publicly (with a verified proponent organization). */
export const PUBLIC_PROJECT_STATUSES: readonly ProjectStatus[] = ['validated', 'registered'];
/** Statuses under which credits may be issued. */
export const ISSUABLE_PROJECT_STATUSES: readonly ProjectStatus[] = ['validated', 'registered'];

export const CREDIT_TYPES = ['exPost', 'exAnte'] as const;
export type CreditType = (typeof CREDIT_TYPES)[number];

export const RESERVATION_STATES = ['pending', 'cancelled', 'expired', 'pending_queue', 'processed', 'failed'] as const;
export type ReservationState = (typeof RESERVATION_STATES)[number];

export const TRANSACTION_STATES = ['pending_queue', 'processed', 'failed'] as const;
export type TransactionState = (typeof TRANSACTION_STATES)[number];

export const FINISH_ACTIONS = ['transfer', 'transfer_retire'] as const;
export type FinishAction = (typeof FINISH_ACTIONS)[number];

export const ORGANIZATION_TYPES = ['projectProponent', 'validationVerificationBody', 'buyer', 'registryOperator'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

/** Installation permission keys and the levels each accepts (compatibility.md). */
export const PERMISSION_LEVELS = {
  organization_info: ['VIEW'],
  organization_warehouse: ['VIEW', 'WRITE'],
  organization_inventory: ['VIEW', 'REQUEST', 'WRITE'],
} as const;
export type PermissionKey = keyof typeof PERMISSION_LEVELS;
export type InstallationPermissions = Partial<{ [K in PermissionKey]: (typeof PERMISSION_LEVELS)[K][number] }>;

/** Permissions an endpoint may require (section 5). */
export const REQUIRED_PERMISSIONS = [
  'examiner:read',
  'organization_info:read',
  'organization_warehouse:read',
  'organization_warehouse:write',
] as const;
export type RequiredPermission = (typeof REQUIRED_PERMISSIONS)[number];

/** Sub-units per tonne: credit accounting is done in whole grams. */
export const GRAMS_PER_TONNE = 1_000_000;

/** Operator roles, lowest first: each role may do everything the ones before it may. */
export const OPERATOR_ROLES = ['viewer', 'manager', 'administrator'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
export const roleAtLeast = (role: OperatorRole, required: OperatorRole): boolean =>
  OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(required);

/** Outcomes of an audited write attempt. */
export const AUDIT_OUTCOMES = ['succeeded', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Longest Idempotency-Key an operator write accepts. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
/** How long an operator write's answer is replayed for the same Idempotency-Key. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

// Project sectors and types by id, with their titles: what the desk's project form offers and the
// demo registry is drawn from.
export const SECTORS = {
  energy: 'Energy industries (renewable sources)',
  forestry: 'Forestry and land use',
  coastal: 'Coastal and marine ecosystems',
  agriculture: 'Agriculture',
  waste: 'Waste handling and disposal',
  transport: 'Transport',
  households: 'Household energy and devices',
  industry: 'Manufacturing industries',
  'engineered-removal': 'Engineered carbon removal',
} as const;
export type SectorId = keyof typeof SECTORS;

export const PROJECT_TYPES = {
  removal: { title: 'Removal', description: 'Takes carbon dioxide out of the atmosphere and stores it.' },
  avoidance: { title: 'Avoidance', description: 'Prevents emissions that would otherwise have happened.' },
} as const;
export type ProjectTypeId = keyof typeof PROJECT_TYPES;

/** The methodologies by id, each with its title and the sector it belongs to. */
export const METHODOLOGIES = {
  'RDR-AR-001': { title: 'Afforestation, reforestation and revegetation', sector: 'forestry' },
  'RDR-REDD-002': { title: 'Avoided unplanned deforestation and degradation', sector: 'forestry' },
  'RDR-WRC-003': { title: 'Tidal wetland and seagrass restoration', sector: 'coastal' },
  'RDR-SOC-004': { title: 'Soil organic carbon in agricultural land', sector: 'agriculture' },
  'RDR-AG-005': { title: 'Methane reduction through alternate wetting and drying in rice', sector: 'agriculture' },
  'RDR-AGF-006': { title: 'Agroforestry systems on smallholder land', sector: 'agriculture' },
  'RDR-RE-010': { title: 'Grid-connected electricity from renewable sources', sector: 'energy' },
  'RDR-RE-011': { title: 'Off-grid renewable electricity for communities', sector: 'energy' },
  'RDR-CS-020': { title: 'Thermal energy efficiency in households', sector: 'households' },
  'RDR-WP-021': { title: 'Safe drinking water without boiling', sector: 'households' },
  'RDR-WS-030': { title: 'Landfill methane recovery and destruction', sector: 'waste' },
  'RDR-WS-031': { title: 'Aerobic composting of municipal organic waste', sector: 'waste' },
  'RDR-AG-032': { title: 'Methane recovery from livestock manure', sector: 'agriculture' },
  'RDR-TR-040': { title: 'Electrification of public transport', sector: 'transport' },
  'RDR-TR-041': { title: 'Electric two- and three-wheelers', sector: 'transport' },
  'RDR-IN-060': { title: 'Energy efficiency and fuel switch in industrial facilities', sector: 'industry' },
  'RDR-BC-050': { title: 'Biochar carbon removal', sector: 'engineered-removal' },
  'RDR-DAC-051': { title: 'Direct air capture with geological storage', sector: 'engineered-removal' },
  'RDR-ERW-052': { title: 'Enhanced weathering of silicate rock on cropland', sector: 'engineered-removal' },
} as const satisfies Record<string, { title: string; sector: SectorId }>;

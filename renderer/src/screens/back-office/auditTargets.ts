// What an audit entry touched, as records the desk can open: the entry names ids (`targetIds`) and
// keeps the attempt's input and result (`detail`); the field an id came from (or, for the id in the
// path, the action's domain) says what it is. Ids the desk has no screen for (a sector, a token id)
// are left out; nothing is guessed beyond what the entry names.

export type TouchedKind = 'project' | 'organization' | 'app' | 'installation' | 'operator' | 'credit';

export interface Touched {
  kind: TouchedKind;
  id: string;
}

export interface AuditEntryLike {
  action: string;
  targetIds: string[];
  detail: Record<string, unknown>;
}

/** The action's domain (`projects.setStatus` → project): what its path's id and its result's `id` are. */
const DOMAIN: Record<string, TouchedKind> = {
  projects: 'project',
  organizations: 'organization',
  apps: 'app',
  installations: 'installation',
  operators: 'operator',
  credits: 'credit',
  warehouse: 'credit',
  retirements: 'credit',
};

/** Input and result fields that name a record of a kind. */
const FIELD: Record<string, TouchedKind> = {
  projectId: 'project',
  organizationId: 'organization',
  fromOrganizationId: 'organization',
  verificationBodyId: 'organization',
  appId: 'app',
  installationId: 'installation',
  operatorId: 'operator',
  creditId: 'credit',
};

/** Actions whose record is in the request's path (so in neither the input nor always the result). */
const ON_PATH = new Set([
  'projects.update',
  'projects.setStatus',
  'organizations.update',
  'organizations.setVerified',
  'apps.setExaminer',
  'installations.setStatus',
  'installations.remove',
  'operators.setActive',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function touchedBy(entry: AuditEntryLike): Touched[] {
  const found = new Map<string, TouchedKind>();
  const named = new Set(entry.targetIds);
  const add = (id: unknown, kind: TouchedKind | undefined) => {
    if (typeof id === 'string' && kind !== undefined && named.has(id) && !found.has(id)) found.set(id, kind);
  };
  const domain = DOMAIN[entry.action.split('.')[0] ?? ''];
  const input = isObject(entry.detail.input) ? entry.detail.input : {};
  const result = isObject(entry.detail.result) ? entry.detail.result : {};
  const visit = (source: Record<string, unknown>, depth: number) => {
    for (const [key, value] of Object.entries(source)) {
      if (key in FIELD) add(value, FIELD[key]);
      else if (isObject(value) && depth === 0) visit(value, 1);
    }
  };
  visit(input, 0);
  visit(result, 0);
  if (domain !== undefined && domain !== 'credit') {
    add(result.id, domain);
    for (const nested of ['organization', 'operator'] as const) {
      const record = result[nested];
      if (isObject(record)) add(record.id, nested);
    }
    // the record in the request's path is the entry's first target
    if (ON_PATH.has(entry.action)) add(entry.targetIds[0], domain);
  }
  return [...found].map(([id, kind]) => ({ kind, id }));
}

// The registry's codes as a person reads them: an installation's permission level ("Can view", not
// VIEW) and an audit action ("Project status changed", not projects.setStatus). The code itself stays
// where a person may need it (the audit entry's details, a tooltip, the filter's search), never as
// the only text. An action the desk has no words for is shown as its code.
import { compareNames, humanize } from './format';

const LEVELS: Record<string, string> = {
  VIEW: 'Can view',
  REQUEST: 'Can request',
  WRITE: 'Can change',
};

/** "Can view", "Can request", "Can change"; an unknown level as sent. */
export function permissionLevelWords(level: string): string {
  return LEVELS[level] ?? level;
}

/** "Organization warehouse: can change", one permission of an installation as a phrase. */
export function permissionWords(key: string, level: string): string {
  const words = permissionLevelWords(level);
  return `${humanize(key)}: ${words === level ? level : words.toLowerCase()}`;
}

/** An installation's permissions as one line, "Organization info: can view, Organization warehouse: can change"; "—" for none. */
export function permissionsWords(permissions: Partial<Record<string, string>>): string {
  const parts = Object.entries(permissions).flatMap(([key, level]) => (level ? [permissionWords(key, level)] : []));
  return parts.length > 0 ? parts.join(', ') : '—';
}

const ACTIONS: Record<string, string> = {
  'apps.create': 'App registered',
  'apps.setExaminer': 'Examiner rights changed',
  'credits.cancel': 'Credits cancelled',
  'credits.issue': 'Credits issued',
  'credits.retire': 'Credits retired',
  'credits.transfer': 'Credits transferred',
  'installations.create': 'App installed',
  'installations.remove': 'Installation removed',
  'installations.setStatus': 'Installation suspended or resumed',
  'operatorTokens.create': 'Operator signed in',
  'operators.create': 'Operator created',
  'operators.setActive': 'Operator enabled or disabled',
  'operators.setKey': 'Operator given a new key',
  'organizations.create': 'Organization created',
  'organizations.setVerified': 'Verification changed',
  'organizations.update': 'Organization changed',
  'projects.create': 'Draft project created',
  'projects.setStatus': 'Project status changed',
  'projects.update': 'Draft project changed',
  'retirements.recordOnchain': 'Retirement finalized on chain',
  'warehouse.deposit': 'Credits moved into a warehouse',
  'warehouse.withdraw': 'Credits moved out of a warehouse',
};

const PREVIEWS: Record<string, string> = {
  issuance: 'an issuance',
  deposit: 'a move into a warehouse',
  withdrawal: 'a move out of a warehouse',
  transfer: 'a transfer',
  cancellation: 'a cancellation',
};

/** An audit action in words: "Project status changed", "Review of a transfer (nothing changed)"; else its code. */
export function auditActionWords(action: string): string {
  const known = ACTIONS[action];
  if (known) return known;
  const previewed = /^preview\.(.+)$/.exec(action)?.[1];
  if (previewed !== undefined && PREVIEWS[previewed]) return `Review of ${PREVIEWS[previewed]} (nothing changed)`;
  return action;
}

/**
 * Every action the audit log records, in the order of their words: each write's own code (the
 * endpoint table's, given), an operator's sign-in and each review. The filter once offered the
 * writes only, in the order of their codes, so sign-ins and reviews could not be picked.
 */
export function auditedActions(writeCodes: readonly string[]): string[] {
  const codes = new Set([...writeCodes, 'operatorTokens.create', ...Object.keys(PREVIEWS).map((op) => `preview.${op}`)]);
  return [...codes].sort((a, b) => compareNames(auditActionWords(a), auditActionWords(b)));
}

const ACTORS: Record<string, (who: string) => string> = {
  seed: () => 'Demo data',
  cli: (user) => `Command line, as ${user}`,
  desk: (user) => `Desk setup, as ${user}`,
  unverified: (who) => `Unverified sign-in as ${who}`,
};

/** Who made an audit entry that no operator made, in words ("Demo data" for `seed:demo`); else the code. */
export function auditActorWords(actor: string): string {
  const [, kind = '', who = ''] = /^([a-z]+):(.*)$/.exec(actor) ?? [];
  const words = ACTORS[kind];
  return words ? words(who) : actor;
}

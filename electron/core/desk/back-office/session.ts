// Who the back office acts as, and what it may do now: per operator endpoint, the table's required
// role against the operator's role, and (for writes) whether the registry can be reached. An action
// the operator cannot take is shown disabled with this reason, never offered and then refused.
import {
  OPERATOR_READS,
  OPERATOR_WRITES,
  type BackOfficeAllowance,
  type BackOfficeOperator,
  type BackOfficeSession,
  type OperatorEndpointName,
} from '@shared/desk/back-office';
import { endpoints } from '@shared/registry/endpoints';
import { roleAtLeast, type OperatorRole } from '@shared/registry/vocabulary';

/** The role a row requires (every operator row names one). */
export function requiredRole(endpoint: OperatorEndpointName): OperatorRole {
  const auth = endpoints[endpoint].auth;
  if (auth.kind !== 'operator') throw new Error(`${endpoint} is not an operator endpoint`);
  return auth.role;
}

/** "42 seconds", "5 minutes", "3 hours", "2 days": how old something is, in words. */
export function ageInWords(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  const m = Math.round(s / 60);
  if (m < 60) return unit(m, 'minute');
  const h = Math.round(m / 60);
  if (h < 48) return unit(h, 'hour');
  return unit(Math.round(h / 24), 'day');
}

const article = (role: OperatorRole) => (role === 'administrator' ? 'an' : 'a');

/** The session's `can` table. */
export function allowances(options: {
  operator: BackOfficeOperator | undefined;
  /** Why nothing is allowed (no operator account, or it could not be confirmed). */
  unavailableReason?: string;
  online: boolean;
  syncedAt: number | null;
  now: number;
}): Record<OperatorEndpointName, BackOfficeAllowance> {
  const { operator, online } = options;
  const offlineReason =
    options.syncedAt === null
      ? 'Offline: the registry cannot be reached, and no back-office data has been read from it yet'
      : `Offline: the registry cannot be reached; the data shown is from ${ageInWords(options.now - options.syncedAt)} ago`;
  const can = {} as Record<OperatorEndpointName, BackOfficeAllowance>;
  const judge = (endpoint: OperatorEndpointName, write: boolean): BackOfficeAllowance => {
    if (!operator) return { allowed: false, reason: options.unavailableReason ?? 'No operator account for this registry' };
    const role = requiredRole(endpoint);
    if (!roleAtLeast(operator.role, role))
      return {
        allowed: false,
        reason: `Needs the ${role} role: ${operator.name} is ${article(operator.role)} ${operator.role}`,
      };
    if (write && !online) return { allowed: false, reason: offlineReason };
    return { allowed: true };
  };
  for (const endpoint of OPERATOR_READS) can[endpoint] = judge(endpoint, false);
  for (const endpoint of OPERATOR_WRITES) can[endpoint] = judge(endpoint, true);
  return can;
}

export function sessionOf(options: {
  operator: BackOfficeOperator | undefined;
  unavailableReason?: string;
  online: boolean;
  syncedAt: number | null;
  now: number;
}): BackOfficeSession {
  const available = options.operator !== undefined;
  return {
    available,
    ...(!available ? { reason: options.unavailableReason ?? 'No operator account for this registry' } : {}),
    ...(options.operator ? { operator: options.operator } : {}),
    online: options.online,
    syncedAt: options.syncedAt === null ? null : new Date(options.syncedAt).toISOString(),
    can: allowances(options),
  };
}

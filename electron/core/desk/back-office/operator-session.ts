// backOffice.session (index.ts): the operator account the active connection acts as.
import type { BackOfficeOperator, BackOfficeSession } from '@shared/desk/back-office';
import { RegistryClientError } from '@desk/client/errors';
import { translateClientError } from '@desk/registry-calls';
import { NO_OPERATOR, type BackOfficeContext } from './context';
import { sessionOf } from './session';

/** backOffice.session: the operator the connection acts as, confirmed by the registry when it answers. */
export function sessionReader(ctx: BackOfficeContext): () => Promise<BackOfficeSession> {
  const { options, tracker, clock, storeOf, reach } = ctx;
  /** The operator each connection was last confirmed as (to show it offline). */
  const known = new Map<string, BackOfficeOperator>();

  return async function session(): Promise<BackOfficeSession> {
    const active = options.active();
    const base = { online: tracker.online, now: clock.now() };
    if (!active) return sessionOf({ ...base, operator: undefined, unavailableReason: 'No registry connection is active', syncedAt: null });
    const store = storeOf(active);
    const { connection } = active;
    if (connection.operatorId === undefined)
      return sessionOf({ ...base, operator: undefined, unavailableReason: NO_OPERATOR, syncedAt: store.latestFetchedAt() });
    let operator: BackOfficeOperator | undefined;
    let unavailableReason: string | undefined;
    try {
      const self = await reach(() => active.client.call('operatorGetSelf'));
      operator = { id: self.operator.id, name: self.operator.name, role: self.operator.role };
      if (!self.operator.active) {
        operator = undefined;
        unavailableReason = `The operator account ${self.operator.name} is disabled on this registry: an administrator can enable it`;
      }
    } catch (error) {
      if (error instanceof RegistryClientError && error.unreachable) {
        operator = known.get(connection.id) ?? store.operator() ?? undefined;
        if (!operator)
          unavailableReason = `The registry cannot be reached to confirm the operator account ${connection.operatorId}; the back office opens once it can`;
      } else {
        const failure = translateClientError(error, 'Reading the operator account');
        const message = failure instanceof Error ? failure.message : String(failure);
        unavailableReason = `The registry does not accept the operator account ${connection.operatorId}: ${message}. Check its id and key file in Settings`;
      }
    }
    if (operator) {
      known.set(connection.id, operator);
      store.rememberOperator(operator);
    }
    return sessionOf({
      online: tracker.online,
      now: clock.now(),
      operator,
      ...(unavailableReason !== undefined ? { unavailableReason } : {}),
      syncedAt: store.latestFetchedAt(),
    });
  };
}

// backOffice.read (index.ts): operator reads through the registry, kept for when it cannot be reached.
import { OPERATOR_READS_NOT_KEPT } from '@shared/desk/back-office';
import type { EndpointId } from '@shared/registry/endpoints';
import { RegistryClientError } from '@desk/client/errors';
import type { CallInput } from '@desk/client/registry-client';
import { DeskFailure } from '@desk/errors';
import { translateClientError } from '@desk/registry-calls';
import { requireOperator, type BackOfficeContext } from './context';
import { requestKey, type AuditQuery, type BackOfficeStore } from './store';
import type { BackOffice } from './types';

/** backOffice.read: the registry's answer, kept; offline, the answer kept or the back-office tables'. */
export async function readThrough(ctx: BackOfficeContext, input: Parameters<BackOffice['read']>[0]) {
  const { clock, runtime, storeOf, reach } = ctx;
  const active = runtime();
  requireOperator(active);
  const store = storeOf(active);
  const key = requestKey(input);
  const call = { params: input.params ?? {}, query: input.query ?? {} } as CallInput<EndpointId>;
  try {
    const data: unknown = await reach(() => active.client.call(input.endpoint, call as never));
    const fetchedAt = clock.now();
    if (!OPERATOR_READS_NOT_KEPT.includes(input.endpoint)) store.put(input, data, fetchedAt);
    return { data, source: 'registry' as const, fetchedAt: new Date(fetchedAt).toISOString() };
  } catch (error) {
    if (error instanceof RegistryClientError && error.unreachable) {
      if (OPERATOR_READS_NOT_KEPT.includes(input.endpoint)) {
        throw new DeskFailure(
          'offline',
          'The registry cannot be reached: reviewing a change needs it, to say what the change would do now',
        );
      }
      const offline = offlineAnswer(store, input);
      if (offline) return { data: offline.data, source: 'cache' as const, fetchedAt: new Date(offline.fetchedAt).toISOString() };
      const saved = store.get(key);
      if (saved) return { data: saved.data, source: 'cache' as const, fetchedAt: new Date(saved.fetchedAt).toISOString() };
      throw new DeskFailure(
        'offline',
        'The registry cannot be reached, and the desk has not saved this view yet: it is saved the first time it is read online',
      );
    }
    throw translateClientError(error, 'Reading the back office');
  }
}

/**
 * Offline answers the back-office tables give beyond the saved answers: the audit log filtered as
 * the registry filters it, and a credit's history. Null: not held (the saved answer, if any, is used).
 */
function offlineAnswer(store: BackOfficeStore, input: Parameters<BackOffice['read']>[0]): { data: unknown; fetchedAt: number } | null {
  const query = input.query ?? {};
  const text = (name: string) => (query[name] === undefined ? undefined : String(query[name]));
  const fetchedAt = store.latestFetchedAt();
  if (fetchedAt === null) return null;
  if (input.endpoint === 'operatorSearchAudit') {
    const time = (name: string) => (text(name) === undefined ? undefined : Date.parse(text(name)!));
    const audit: AuditQuery = {
      limit: Math.min(Number(text('limit') ?? 10) || 10, 100),
      cursor: text('cursor'),
      operatorId: text('operatorId'),
      action: text('action'),
      targetId: text('targetId'),
      from: time('from'),
      to: time('to'),
    };
    const found = store.searchAudit(audit);
    return found ? { data: found, fetchedAt } : null;
  }
  if (input.endpoint === 'operatorCreditHistory') {
    const found = store.creditHistory({ creditId: text('creditId'), serialization: text('serialization') });
    return found ? { data: found, fetchedAt } : null;
  }
  return null;
}

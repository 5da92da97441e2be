// backOffice.write and backOffice.settle (index.ts): operator writes, retried with their idempotency key.
import type { BackOfficeWriteOutput, OperatorWriteName } from '@shared/desk/back-office';
import type { EndpointId } from '@shared/registry/endpoints';
import { RegistryClientError } from '@desk/client/errors';
import { NetworkError } from '@desk/client/http';
import type { CallInput } from '@desk/client/registry-client';
import type { ConnectionRuntime } from '@desk/connection-runtime';
import { setTimeout as delay } from 'node:timers/promises';
import { offlineFailure } from '@desk/errors';
import { translateClientError } from '@desk/registry-calls';
import { requireOperator, type BackOfficeContext } from './context';
import type { WriteInput } from './types';

/** backOffice.write and settle: sent with its idempotency key, retried, and answered done, refused or unsure. */
export async function sendWrite(
  ctx: BackOfficeContext & { sync(): Promise<void> },
  input: WriteInput,
  action: 'write' | 'settle',
): Promise<BackOfficeWriteOutput> {
  const { options, log, runtime, reach } = ctx;
  const attempts = Math.max(1, options.writeAttempts ?? 3);
  const retryDelayMs = options.writeRetryDelayMs ?? 500;
  const active = runtime();
  requireOperator(active);
  const call = {
    params: input.params ?? {},
    ...(input.body !== undefined ? { body: input.body } : {}),
    idempotencyKey: input.idempotencyKey,
  } as CallInput<EndpointId>;
  let lastError: RegistryClientError | undefined;
  let everSent = false;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const data: unknown = await reach(() => active.client.call(input.endpoint, call as never));
      afterDone(ctx, active, input.endpoint);
      return { outcome: 'done', data };
    } catch (error) {
      if (!(error instanceof RegistryClientError)) throw error;
      if (error.kind === 'invalid_request') throw translateClientError(error, input.endpoint);
      if (error.kind === 'key_unavailable') throw translateClientError(error, input.endpoint);
      if (error.kind === 'http') {
        const status = error.status ?? 0;
        // A gateway's answer says nothing of whether the registry did it: like a lost answer.
        if (![502, 503, 504].includes(status)) {
          const failure = translateClientError(error, input.endpoint);
          return { outcome: 'refused', status, message: failure instanceof Error ? failure.message : String(failure) };
        }
        everSent = true;
      } else if (error.kind === 'invalid_response') {
        // It answered success in a form the desk cannot read: it was done.
        log(`${input.endpoint}: ${error.message}`);
        afterDone(ctx, active, input.endpoint);
        return { outcome: 'done', data: null };
      } else if (!(error instanceof NetworkError && error.neverSent)) everSent = true;
      lastError = error;
      if (attempt < attempts) await delay(retryDelayMs * attempt);
    }
  }
  if (!everSent) throw offlineFailure(action === 'write' ? 'This change' : 'Checking the change');
  return {
    outcome: 'unsure',
    message: `No answer came back from the registry (${lastError?.message ?? 'network error'}); the change may or may not have been made. The desk checks again with the same request, which can only be made once.`,
  };
}

/**
 * After a write was done: screens reload at once (their reads go to the registry), while the
 * back-office cache is synced (incrementally) and the usual sync runs, in the background, so
 * offline review stays current.
 */
function afterDone(ctx: BackOfficeContext & { sync(): Promise<void> }, active: ConnectionRuntime, endpoint: OperatorWriteName): void {
  const { options, log, sync } = ctx;
  options.publish({ type: 'backOffice.changed', endpoint });
  void sync().finally(() => {
    void active.sync.run().catch((error: unknown) => log(`sync after ${endpoint} failed: ${(error as Error).message}`));
  });
}

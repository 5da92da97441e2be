// Every error the registry answers, in the JSON body of compatibility.md: no route (404) or a
// method the path does not take (405, with Allow), refusals, a full disk, a busy or unreachable
// database, a client gone mid-upload, and anything unexpected (500, reported, never detailed).
import type { Context } from 'hono';
import { endpointIds, endpoints } from '@shared/registry/endpoints';
import { DatabaseBusyError, DatabaseUnavailableError } from '@platform/db/database';
import { RegistryError } from '@registry/errors';
import { ClientAbortedError } from './body';
import { DISK_FULL_MESSAGE, isDiskFull } from './disk-full';
import { errorResponse, messageOf } from './pipeline-parts';
import { pathPattern } from './route-paths';

/** 405 naming the methods the path takes when some endpoint has it; 404 otherwise. */
export function answerNoRoute(c: Context) {
  const path = c.req.path;
  const allowed = endpointIds.filter((id) => pathPattern(endpoints[id].path).test(path)).map((id) => endpoints[id].method);
  if (allowed.length > 0) {
    c.header('Allow', [...new Set([...allowed, 'OPTIONS'])].join(', '));
    return errorResponse(c, 405, `Cannot ${c.req.method} ${path}`);
  }
  return errorResponse(c, 404, `Cannot ${c.req.method} ${path}`);
}

export interface ErrorHooks {
  /** Told when a write failed for a full disk. */
  diskFull(): void;
  onClientAborted?: (where: string) => void;
  onInternalError?: (error: unknown, where: string) => void;
}

/** The answer to an error a route threw. */
export function answerError(error: Error, c: Context, hooks: ErrorHooks) {
  if (error instanceof RegistryError) return errorResponse(c, error.status, messageOf(error), error.headers);
  if (isDiskFull(error)) {
    hooks.diskFull();
    return errorResponse(c, 507, DISK_FULL_MESSAGE);
  }
  // Rolled back after colliding with concurrent writes until its retries ran out: nothing changed,
  // so a client may send it again (its own retry policy treats 503 like any 5xx, after Retry-After).
  if (error instanceof DatabaseBusyError) return errorResponse(c, 503, error.message, { 'Retry-After': '1' });
  // The database is unreachable (restarting, connection cut): the engine reconnects by itself, so
  // the same request may be sent again shortly; when the outcome of a COMMIT is unknown the
  // message says so and that only a retry with the same Idempotency-Key is safe.
  if (error instanceof DatabaseUnavailableError) return errorResponse(c, 503, error.message, { 'Retry-After': '1' });
  if (error instanceof ClientAbortedError) {
    // Nobody is left to read the answer; not a bug of ours, so no stack and no 500.
    hooks.onClientAborted?.(`${c.req.method} ${c.req.path}`);
    return errorResponse(c, 400, 'The request body was cut off before its end', { Connection: 'close' });
  }
  hooks.onInternalError?.(error, `${c.req.method} ${c.req.path}`);
  return errorResponse(c, 500, 'Internal server error');
}

// Calls to the registry on behalf of a desk method, with the client's failures translated into
// DeskErrors: unreachable → `offline` ("… needs the registry …; nothing was changed"), an HTTP
// refusal → the matching code with the registry's own message, an unreadable key → key_unavailable.
import { RegistryClientError } from './client/errors';
import { DeskFailure, fromRegistryAnswer, offlineFailure } from './errors';

export interface OnlineTracker {
  /** A call reached the registry (whatever it answered) or failed to. */
  report(reachable: boolean): void;
  readonly online: boolean;
}

/** The tracker of the active connection: `onChange` hears every change of reachability. */
export function createOnlineTracker(onChange: (online: boolean) => void): OnlineTracker & { assumeOnline(): void } {
  let online = true;
  return {
    get online() {
      return online;
    },
    report(reachable) {
      if (reachable === online) return;
      online = reachable;
      onChange(online);
    },
    /** A newly activated connection starts as reachable, until a call says otherwise. */
    assumeOnline() {
      online = true;
    },
  };
}

export function translateClientError(error: unknown, action: string): unknown {
  if (!(error instanceof RegistryClientError)) return error;
  if (error.unreachable) return offlineFailure(action);
  switch (error.kind) {
    case 'http':
      return fromRegistryAnswer({
        status: error.status ?? 0,
        message: error.messages.length > 0 ? error.messages.join('; ') : (error.reason ?? error.message),
      });
    case 'key_unavailable':
      return new DeskFailure('key_unavailable', `${error.message}. Re-import the app's private key in Connections.`);
    case 'invalid_request':
      return new DeskFailure('invalid_input', error.message, error.messages);
    default:
      return new DeskFailure('registry_error', `The registry's answer could not be used: ${error.message}`);
  }
}

/** Runs `call`, reporting reachability and translating failures. `action` names it for the offline message. */
export async function withRegistry<T>(tracker: OnlineTracker, action: string, call: () => Promise<T>): Promise<T> {
  try {
    const result = await call();
    tracker.report(true);
    return result;
  } catch (error) {
    if (error instanceof RegistryClientError) tracker.report(!error.unreachable);
    throw translateClientError(error, action);
  }
}

export const isUnreachable = (error: unknown): boolean =>
  (error instanceof RegistryClientError && error.unreachable) || (error instanceof DeskFailure && error.code === 'offline');

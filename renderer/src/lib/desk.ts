// The renderer's only way to the desk: a thin wrapper over the typed bridge that turns a failed
// result into a thrown DeskFailure (so screens can use try/catch and show `message`), and notes
// how fresh every read was so the offline banner can say how old the data on screen is.
import type { DeskBridge, DeskError, DeskEvent, DeskInput, DeskMethod, DeskOutput, FileHandle, PickedKey } from '@shared/desk/api';
import { getBridge } from '../bridge';
import { useFreshness } from '../stores/freshness';

export class DeskFailure extends Error {
  readonly code: DeskError['code'];
  readonly details: string[];
  constructor(error: DeskError) {
    super(error.message);
    this.name = 'DeskFailure';
    this.code = error.code;
    this.details = error.details ?? [];
  }
}

let bridgePromise: Promise<DeskBridge> | null = null;

/** getBridge() may answer at once (Electron preload) or after the web host's session handshake. */
function bridge(): Promise<DeskBridge> {
  bridgePromise ??= Promise.resolve().then(() => getBridge());
  return bridgePromise;
}

function hasFreshness(value: unknown): value is { offline: boolean; asOf: string | null } {
  return typeof value === 'object' && value !== null && 'offline' in value && typeof value.offline === 'boolean';
}

export async function desk<M extends DeskMethod>(method: M, input: DeskInput<M>): Promise<DeskOutput<M>> {
  let result;
  try {
    result = await (await bridge()).invoke(method, input);
  } catch (error) {
    // The bridge itself failed (the desk process went away, the web host restarted): not a DeskError.
    throw new DeskFailure({
      code: 'internal',
      message: `The desk service did not answer (${error instanceof Error ? error.message : String(error)}). Try again, or restart Registry Desk.`,
    });
  }
  if (!result.ok) throw new DeskFailure(result.error);
  if (hasFreshness(result.value)) useFreshness.getState().recordRead(result.value);
  return result.value;
}

export function onDeskEvent(listener: (event: DeskEvent) => void): () => void {
  let unsubscribe: (() => void) | null = null;
  let cancelled = false;
  void bridge().then((b) => {
    if (!cancelled) unsubscribe = b.onEvent(listener);
  });
  return () => {
    cancelled = true;
    unsubscribe?.();
  };
}

/** Which host the page runs in: Electron picks key files in a native dialog, the browser with a file input. */
export async function bridgeHost(): Promise<DeskBridge['host']> {
  return (await bridge()).host;
}

/** A new one-time launch address for another browser; null where the desk is no browser page (Electron). */
export async function newLaunchAddress(): Promise<string | null> {
  const b = await bridge();
  return b.newLaunchAddress ? b.newLaunchAddress() : null;
}

/** Hands the app key file to the desk (the page never reads it); null when the user cancelled. */
export async function importKeyFile(file?: File): Promise<PickedKey | null> {
  return (await bridge()).importKeyFile(file);
}

export async function saveFile(file: FileHandle): Promise<{ saved: boolean; path?: string }> {
  return (await bridge()).saveFile({ handle: file.handle });
}

/** Words for any failure, for an error line under the action that caused it. */
export function describeError(error: unknown): string {
  if (error instanceof DeskFailure) {
    return error.details.length > 0 ? `${error.message} (${error.details.join('; ')})` : error.message;
  }
  if (error instanceof Error) return error.message;
  return 'Something went wrong. Try again.';
}

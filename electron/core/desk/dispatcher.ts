// What the two hosts (Electron IPC and the loopback web host) need of the desk service: one call
// entry that validates everything itself, and the event stream. The service answers in-process
// (service.ts) or from its own process (process/host-side.ts), so every answer may be a promise.
import type { DeskEvent, DeskResult, PickedKey } from '@shared/desk/api';
import type { Artifact } from './artifacts';

export interface DeskDispatcher {
  /** `method` and `rawInput` come straight from the renderer: both are validated inside. */
  dispatch(method: string, rawInput: unknown): Promise<DeskResult<unknown>>;
  onEvent(listener: (event: DeskEvent) => void): () => void;
  /** The files the desk produced (certificates, CSV exports): the hosts save them by handle. */
  readonly artifacts: {
    get(handle: string): Artifact | undefined | Promise<Artifact | undefined>;
    release(handle: string): void;
  };
  /** Where the hosts put the app key file the user picked; the page gets only its handle. */
  readonly keyImports: { put(pem: string, fileName: string): PickedKey | Promise<PickedKey> };
}

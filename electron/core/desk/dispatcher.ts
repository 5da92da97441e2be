// What the two hosts (Electron IPC and the loopback web host) need of the desk service: one call
// entry that validates everything itself, and the event stream.
import type { DeskEvent, DeskResult } from '../../../shared/desk/api';
import type { ArtifactStore } from './artifacts';
import type { KeyImports } from './key-imports';

export interface DeskDispatcher {
  /** `method` and `rawInput` come straight from the renderer: both are validated inside. */
  dispatch(method: string, rawInput: unknown): Promise<DeskResult<unknown>>;
  onEvent(listener: (event: DeskEvent) => void): () => void;
  /** The files the desk produced (certificates, CSV exports): the hosts save them by handle. */
  readonly artifacts: Pick<ArtifactStore, 'get' | 'release'>;
  /** Where the hosts put the app key file the user picked; the page gets only its handle. */
  readonly keyImports: Pick<KeyImports, 'put'>;
}

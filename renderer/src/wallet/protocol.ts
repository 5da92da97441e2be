// Messages between the page and the wallet worker. The worker signs only finalizations: it gets
// the five fields, not a message, and answers the exact text it signed.
import type { FinalizeFields } from './signedMessage';

export type WalletRequest =
  | { id: number; kind: 'unlockKeystore'; keystoreJson: string; password: string }
  | { id: number; kind: 'importPrivateKey'; privateKey: string }
  | { id: number; kind: 'encryptForSession'; password: string }
  | { id: number; kind: 'signFinalization'; fields: FinalizeFields }
  | { id: number; kind: 'forget' };

export type WalletResponse =
  | { id: number; kind: 'progress'; progress: number }
  | { id: number; kind: 'done'; address: string | null; signature?: string; signedMessage?: string; keystoreJson?: string }
  | { id: number; kind: 'error'; message: string };

/** Distributes Omit over the union, so each request keeps its own fields. */
export type WalletCommand = WalletRequest extends infer R ? (R extends WalletRequest ? Omit<R, 'id'> : never) : never;

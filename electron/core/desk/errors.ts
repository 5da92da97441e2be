// Every failure leaves the desk as a DeskError (shared/desk/api.ts) with a message an account
// manager can act on. Code inside the desk throws DeskFailure; registry answers and network
// failures are translated here, in one place.
import type { z } from 'zod';
import type { DeskError } from '@shared/desk/api';
import { zodMessages } from '../platform/zod-messages';
import { CorruptFileError } from './json-file';
import { InvalidPrivateKeyError, InvalidSecretInputError, SecretStoreError } from './secrets';

export type DeskErrorCode = DeskError['code'];

export class DeskFailure extends Error {
  constructor(
    readonly code: DeskErrorCode,
    message: string,
    readonly details?: string[],
  ) {
    super(message);
    this.name = 'DeskFailure';
  }
  toDeskError(): DeskError {
    return this.details && this.details.length > 0
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

/** The renderer sent something the contract refuses: list every problem. */
export function invalidInput(issues: readonly z.core.$ZodIssue[], what: string): DeskFailure {
  const details = zodMessages(issues);
  return new DeskFailure('invalid_input', `${what}: ${details.join('; ')}`, details);
}

/** A write that could not reach the registry: the sentence the renderer shows as it is. */
export function offlineFailure(action: string): DeskFailure {
  return new DeskFailure('offline', `${action} needs the registry, which cannot be reached; nothing was changed`);
}

/** A registry answer (non-2xx) as the client reports it. */
export interface RegistryAnswerError {
  status: number;
  message: string;
}

const STATUS_CODES: Record<number, DeskErrorCode> = {
  400: 'invalid_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
};

/** Maps a registry HTTP answer to a desk error, keeping the registry's own message (it is written for people). */
export function fromRegistryAnswer(error: RegistryAnswerError): DeskFailure {
  const code = STATUS_CODES[error.status] ?? 'registry_error';
  const prefix: Record<DeskErrorCode, string> = {
    invalid_input: 'The registry refused the request',
    unauthorized: "The registry refused this app's credentials",
    forbidden: 'The registry does not allow this',
    not_found: 'The registry does not know this',
    conflict: 'The registry refused because of the current state',
    registry_error: `The registry answered ${error.status}`,
    offline: '',
    key_unavailable: '',
    internal: '',
  };
  return new DeskFailure(code, `${prefix[code]}: ${error.message}`);
}

/** Anything thrown while serving a desk call, as the DeskError the renderer receives. */
export function toDeskError(error: unknown): DeskError {
  if (error instanceof DeskFailure) return error.toDeskError();
  if (error instanceof CorruptFileError) return { code: 'internal', message: error.message };
  // The secret stores' messages are written for users and never carry a secret.
  if (error instanceof InvalidPrivateKeyError || error instanceof InvalidSecretInputError)
    return { code: 'invalid_input', message: error.message };
  if (error instanceof SecretStoreError) return { code: 'key_unavailable', message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Something went wrong inside the desk: ${message}` };
}

// Domain errors of the registry. The HTTP layer maps each kind to its status and the JSON error
// body of compatibility.md; the CLI and the desk show the message as it is.
export type RegistryErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'request_timeout'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'insufficient_storage';

export const STATUS_OF: Record<RegistryErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  insufficient_storage: 507,
};

export class RegistryError extends Error {
  readonly messages: string[];
  constructor(
    readonly kind: RegistryErrorKind,
    message: string | string[],
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    const messages = Array.isArray(message) ? message : [message];
    super(messages.join('; '));
    this.messages = messages;
    this.name = 'RegistryError';
  }
  get status(): number {
    return STATUS_OF[this.kind];
  }
}

export const badRequest = (message: string | string[]) => new RegistryError('bad_request', message);
export const notFound = (message: string) => new RegistryError('not_found', message);
export const conflict = (message: string) => new RegistryError('conflict', message);
export const forbidden = (message: string) => new RegistryError('forbidden', message);
export const unauthorized = (message: string) => new RegistryError('unauthorized', message);

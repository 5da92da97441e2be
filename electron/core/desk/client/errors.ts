// The one error type the desk's registry client throws. `kind` says what went wrong so callers can
// map it (offline, unauthorized, conflict...) without parsing messages. Messages never include
// tokens, JWTs or keys: only the method, path and what the registry said.
export type RegistryClientErrorKind = 'network' | 'timeout' | 'http' | 'invalid_response' | 'invalid_request' | 'key_unavailable';

export interface RegistryClientErrorDetails {
  endpoint?: string;
  method?: string;
  path?: string;
  /** HTTP status, for kind 'http'. */
  status?: number;
  /** The registry's `error` reason phrase, for kind 'http'. */
  error?: string;
  /** The registry's message(s) for 'http', or the schema issues for 'invalid_response'. */
  messages?: string[];
  /** Seconds the registry asked us to wait (429). */
  retryAfterS?: number;
  cause?: unknown;
}

export class RegistryClientError extends Error {
  override readonly name = 'RegistryClientError';
  readonly status: number | undefined;
  readonly messages: string[];
  readonly endpoint: string | undefined;
  readonly retryAfterS: number | undefined;
  /** The registry's reason phrase (`error` of the body), for kind 'http'. */
  readonly reason: string | undefined;

  constructor(
    readonly kind: RegistryClientErrorKind,
    message: string,
    details: RegistryClientErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.messages = details.messages ?? [];
    this.endpoint = details.endpoint;
    this.retryAfterS = details.retryAfterS;
    this.reason = details.error;
  }

  /** The registry could not be reached at all (as opposed to answering with an error). */
  get unreachable(): boolean {
    return this.kind === 'network' || this.kind === 'timeout';
  }
}

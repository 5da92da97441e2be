import type { EndpointBody, EndpointId, EndpointParams, EndpointQuery, EndpointResponse } from '@shared/registry/endpoints';
import type { Caller } from '../auth/caller';
import type { RegistryContext } from '../context';

/** A file answer (certificates). */
export interface FileAnswer {
  kind: 'file';
  bytes: Uint8Array;
  contentType: string;
  /** Sent as `Content-Disposition: attachment; filename=<filename>` (unquoted, see compatibility.md). */
  filename: string;
}

/**
 * A JSON answer already serialized, for hot answers that are cached: sending the cached bytes skips
 * JSON.stringify and UTF-8 encoding of a large body on every request. `T` keeps the handler's answer type checked.
 */
export interface JsonText<T> {
  kind: 'json-text';
  /** UTF-8 bytes, encoded once: a cached answer is then sent without re-encoding. */
  bytes: Uint8Array;
  /** Type witness only; never set. */
  readonly answer?: T;
}

export const jsonText = <T>(value: T): JsonText<T> => ({ kind: 'json-text', bytes: Buffer.from(JSON.stringify(value), 'utf8') });

export interface HandlerInput<K extends EndpointId> {
  params: EndpointParams<K>;
  query: EndpointQuery<K>;
  body: EndpointBody<K>;
  caller: Caller;
  registry: RegistryContext;
  /** The JSON body as received (before validation transformed it); `{}` when there was none. */
  rawBody: unknown;
}

export type Handler<K extends EndpointId> = (
  input: HandlerInput<K>,
) =>
  | EndpointResponse<K>
  | FileAnswer
  | JsonText<EndpointResponse<K>>
  | Promise<EndpointResponse<K> | FileAnswer | JsonText<EndpointResponse<K>>>;

export type Handlers = { [K in EndpointId]: Handler<K> };

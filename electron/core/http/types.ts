import type { EndpointBody, EndpointId, EndpointParams, EndpointQuery, EndpointResponse } from '../../../shared/registry/endpoints';
import type { InstallationPermissions } from '../../../shared/registry/vocabulary';
import type { RegistryContext } from '../registry/context';

/** Who is calling, once the Authorization header has been checked. */
export type Caller =
  /** An app proved itself with its signed JWT (app endpoints only). */
  | { kind: 'app'; appId: string }
  /** An access token; installation tokens carry their organization and permissions. */
  | {
      kind: 'token';
      tokenId: string;
      appId: string;
      appName: string;
      examinerRead: boolean;
      installationId: string | null;
      organizationId: string | null;
      permissions: InstallationPermissions;
    };

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
}

export type Handler<K extends EndpointId> = (
  input: HandlerInput<K>,
) =>
  | EndpointResponse<K>
  | FileAnswer
  | JsonText<EndpointResponse<K>>
  | Promise<EndpointResponse<K> | FileAnswer | JsonText<EndpointResponse<K>>>;

export type Handlers = { [K in EndpointId]: Handler<K> };

/** Checks the Authorization header of a request for one endpoint; throws RegistryError (401/403/429). */
export interface Authenticator {
  authenticate(request: {
    authorization: string | undefined;
    endpointId: EndpointId;
    pathParams: Record<string, string>;
  }): Caller | Promise<Caller>;
}

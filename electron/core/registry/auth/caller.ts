// Who is calling: what the authenticator makes of a request's credentials, and what the HTTP
// pipeline and its handlers act on.
import type { EndpointId } from '@shared/registry/endpoints';
import type { InstallationPermissions } from '@shared/registry/vocabulary';
import type { BoundRead } from '@platform/db/database';
import type { OperatorCaller } from './operator-tokens';

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
    }
  /** An operator (operator endpoints only); its role is checked by the pipeline, which audits refusals. */
  | OperatorCaller;

/** A request's credentials, for one endpoint. */
export interface AuthenticationRequest {
  authorization: string | undefined;
  endpointId: EndpointId;
  pathParams: Record<string, string>;
  /** The client's address, for the failed-authentication limit ('unknown' when not known). */
  clientAddress?: string;
}

/** Checks the Authorization header of a request for one endpoint; throws RegistryError (401/403/429). */
export interface Authenticator {
  authenticate(request: AuthenticationRequest): Caller | Promise<Caller>;
  /**
   * authenticate, and a read whose rows are answered only with the caller, once it is authenticated
   * and allowed the endpoint (refused, the rows are dropped unseen). With an access token the read
   * goes with the token's lookup, in the same round trip on PostgreSQL; with other credentials it
   * runs after them.
   */
  authenticateWith<R>(request: AuthenticationRequest, read: BoundRead<R>): Promise<{ caller: Caller; rows: R[] }>;
}

// Who is calling: what the authenticator makes of a request's credentials, and what the HTTP
// pipeline and its handlers act on.
import type { EndpointId } from '@shared/registry/endpoints';
import type { InstallationPermissions } from '@shared/registry/vocabulary';
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

/** Checks the Authorization header of a request for one endpoint; throws RegistryError (401/403/429). */
export interface Authenticator {
  authenticate(request: {
    authorization: string | undefined;
    endpointId: EndpointId;
    pathParams: Record<string, string>;
    /** The client's address, for the failed-authentication limit ('unknown' when not known). */
    clientAddress?: string;
  }): Caller | Promise<Caller>;
}

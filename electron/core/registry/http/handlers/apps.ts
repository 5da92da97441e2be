// 4.6 Apps: tokens and installations (compatibility.md, Apps, installations, tokens).
import { appTokenGrant, installationTokenGrant, issueAccessToken, revokeToken } from '@registry/auth/tokens';
import type { Caller } from '@registry/auth/caller';
import { forbidden, unauthorized } from '@registry/errors';
import {
  countInstallationsOfApp,
  installationPermissions,
  listInstallationsOfApp,
  ownInstallation,
  presentInstallation,
} from '@registry/queries/installations';
import { pageOf } from '../pagination';
import type { Handlers } from '../types';

function appIdOf(caller: Caller): string {
  if (caller.kind !== 'app') throw unauthorized('Expected an app JWT');
  return caller.appId;
}

export const appHandlers: Pick<
  Handlers,
  'createAppAccessToken' | 'createInstallationAccessToken' | 'revokeAccessToken' | 'listInstallations' | 'getInstallation'
> = {
  createAppAccessToken({ caller, registry }) {
    return issueAccessToken(registry, appTokenGrant(registry, appIdOf(caller)));
  },

  createInstallationAccessToken({ caller, registry, params }) {
    const appId = appIdOf(caller);
    const installation = ownInstallation(registry, appId, params.installationId);
    if (installation.status !== 'active') throw forbidden('The installation is suspended');
    return issueAccessToken(registry, installationTokenGrant(registry, appId, installation.id, installationPermissions(installation)));
  },

  revokeAccessToken({ caller, registry }) {
    if (caller.kind !== 'token') throw unauthorized('Expected an access token');
    revokeToken(registry, caller.tokenId);
    return { success: true as const };
  },

  listInstallations({ caller, registry, query }) {
    const appId = appIdOf(caller);
    const { pagination, offset } = pageOf(countInstallationsOfApp(registry, appId), query.page, query.limit);
    return { pagination, installations: listInstallationsOfApp(registry, appId, { limit: query.limit, offset }) };
  },

  getInstallation({ caller, registry, params }) {
    return presentInstallation(registry, ownInstallation(registry, appIdOf(caller), params.installationId));
  },
};

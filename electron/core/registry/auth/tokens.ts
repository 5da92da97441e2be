// Opaque access tokens: a short prefix and 48 hex digits of randomness, handed out once and stored
// only as their SHA-256 hash. Lifetimes: installation tokens 2 hours (compatibility.md), app tokens
// 1 hour (our choice: they read public data only). Expired tokens are purged by housekeeping.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccessToken } from '@shared/registry/resources';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { repeatSafely, type BackgroundService } from '../background';
import type { RegistryTables } from '../schema';

export const TOKEN_PREFIX = 'rdt_';
export const INSTALLATION_TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
export const APP_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Revoked and expired tokens are kept this long (to answer "revoked" rather than "unknown"), then purged. */
export const TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000;

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export function looksLikeAccessToken(value: string): boolean {
  return /^rdt_[0-9a-f]{48}$/.test(value);
}

export interface TokenGrant {
  appId: string;
  installationId: string | null;
  permissions: Record<string, string>;
}

const examinerRead = (v: { appId: string }, q: Kysely<RegistryTables>) =>
  q.selectFrom('apps').select('examiner_read').where('id', '=', v.appId);

/** The app-level `examiner:read` grant, as it shows in every token's `permissions`. */
function examinerPermissions(ctx: RegistryContext, appId: string): Record<string, string> {
  return ctx.db.prepared(examinerRead).first({ appId })?.examiner_read ? { examiner: 'READ' } : {};
}

/** What an app token may do: read public data, and internal data once the operator granted examiner:read. */
export function appTokenGrant(ctx: RegistryContext, appId: string): TokenGrant {
  return { appId, installationId: null, permissions: examinerPermissions(ctx, appId) };
}

/**
 * What an installation token may do: its installation's permissions on its organization, plus the
 * app's examiner grant, which applies to all the app's tokens (so the token says what it can read).
 */
export function installationTokenGrant(
  ctx: RegistryContext,
  appId: string,
  installationId: string,
  permissions: Record<string, string>,
): TokenGrant {
  return { appId, installationId, permissions: { ...permissions, ...examinerPermissions(ctx, appId) } };
}

export function issueAccessToken(ctx: RegistryContext, grant: TokenGrant): AccessToken {
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString('hex')}`;
  const id = ctx.newId();
  const now = ctx.clock.now();
  const expiresAt = now + (grant.installationId ? INSTALLATION_TOKEN_TTL_MS : APP_TOKEN_TTL_MS);
  ctx.db.run(
    ctx.db.q.insertInto('access_tokens').values({
      id,
      token_hash: hashToken(token),
      app_id: grant.appId,
      installation_id: grant.installationId,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
    }),
  );
  return {
    id,
    createdAt: iso(now),
    updatedAt: iso(now),
    token,
    expiresAt: iso(expiresAt),
    isActive: true,
    permissions: grant.permissions,
    appId: grant.appId,
  };
}

export function revokeToken(ctx: RegistryContext, tokenId: string): void {
  const now = ctx.clock.now();
  ctx.db.run(ctx.db.q.updateTable('access_tokens').set({ revoked_at: now }).where('id', '=', tokenId).where('revoked_at', 'is', null));
}

/** Deletes tokens that expired or were revoked more than TOKEN_RETENTION_MS ago. */
export function purgeTokens(ctx: RegistryContext): number {
  const cutoff = ctx.clock.now() - TOKEN_RETENTION_MS;
  const { db } = ctx;
  return db.run(db.q.deleteFrom('access_tokens').where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)])))
    .changes;
}

export const tokenHousekeeping: BackgroundService = {
  name: 'token-housekeeping',
  start: (ctx, options) =>
    repeatSafely('token housekeeping', 10 * 60 * 1000, () => purgeTokens(ctx), {
      log: options?.log,
      runNow: true,
    }),
};

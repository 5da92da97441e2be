// One place decides who may call what: the endpoint table says what each endpoint requires
// (shared/registry/endpoints.ts), this module checks the Authorization header against it.
import { endpoints, type EndpointAuth } from '@shared/registry/endpoints';
import type { InstallationPermissions, RequiredPermission } from '@shared/registry/vocabulary';
import type { Kysely } from 'kysely';
import type { BoundRead } from '@platform/db/database';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { forbidden, RegistryError, unauthorized } from '../errors';
import type { AuthenticationRequest, Authenticator, Caller } from './caller';
import { looksLikeJwt, verifyAppJwt } from './app-jwt';
import { hashToken, looksLikeAccessToken } from './tokens';
import { callerOfOperatorToken, looksLikeOperatorToken, verifyOperatorJwt } from './operator-tokens';
import { DatabaseRateLimiter, RateLimiter, type RateBudget, type RateLimitOptions } from './rate-limit';

export type { RateLimitOptions } from './rate-limit';

export function bearerOf(authorization: string | undefined): string {
  if (!authorization) throw unauthorized('Missing Authorization header');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"');
  return match[1]!;
}

/** A token with its app and installation, read on every request: compiled once per connection. */
const tokenCaller = (v: { hash: string }, q: Kysely<RegistryTables>) =>
  q
    .selectFrom('access_tokens as t')
    .innerJoin('apps as a', 'a.id', 't.app_id')
    .leftJoin('installations as i', 'i.id', 't.installation_id')
    .select(['t.id', 't.app_id', 't.installation_id', 't.expires_at', 't.revoked_at', 'a.name as app_name', 'a.examiner_read'])
    .select(['i.organization_id', 'i.permissions', 'i.status as installation_status'])
    .where('t.token_hash', '=', v.hash);

type TokenCaller = Extract<Caller, { kind: 'token' }>;

/** The token's row, and `along`'s rows read in the same round trip. */
async function tokenRowAnd<R>(ctx: RegistryContext, hash: string, along: BoundRead<R> | undefined) {
  const lookup = ctx.db.prepared(tokenCaller);
  if (!along) return { row: (await lookup.allAsync({ hash }))[0], rows: [] as R[] };
  const [[row], rows] = await ctx.db.allAsyncTogether(lookup.withValues({ hash }), along);
  return { row, rows };
}

/**
 * Resolves an access token to its caller, or throws 401 (unknown, expired, revoked, suspended).
 * `along`: a read sent with the token's lookup, in the same round trip on PostgreSQL; its rows are
 * answered only with a caller (the caller's checks beyond the token's own are the authenticator's).
 */
export async function callerOfToken<R = never>(
  ctx: RegistryContext,
  token: string,
  along?: BoundRead<R>,
): Promise<{ caller: TokenCaller; rows: R[] }> {
  if (looksLikeJwt(token)) throw unauthorized('Expected an access token, not an app JWT');
  if (!looksLikeAccessToken(token)) throw unauthorized('Invalid access token');
  // One query, read on every request (never cached): a revocation or suspension committed by any
  // process is refused from the next request on. It does not hold the process while PostgreSQL
  // answers (allAsync): other requests are served meanwhile.
  const { row, rows } = await tokenRowAnd(ctx, hashToken(token), along);
  if (!row) throw unauthorized('Invalid access token');
  if (row.revoked_at !== null) throw unauthorized('The access token has been revoked');
  if (row.expires_at <= ctx.clock.now()) throw unauthorized('The access token has expired');
  if (row.installation_id !== null && row.installation_status !== 'active') {
    throw unauthorized(row.installation_status === null ? 'The installation was removed' : 'The installation is suspended');
  }
  const caller: TokenCaller = {
    kind: 'token',
    tokenId: row.id,
    appId: row.app_id,
    appName: row.app_name,
    examinerRead: row.examiner_read === 1,
    installationId: row.installation_id,
    organizationId: row.organization_id,
    permissions: row.permissions ? (JSON.parse(row.permissions) as InstallationPermissions) : {},
  };
  return { caller, rows };
}

/** Whether a caller's grants meet one required permission (compatibility.md, permission levels). */
export function hasPermission(caller: TokenCaller, permission: RequiredPermission): boolean {
  switch (permission) {
    case 'examiner:read':
      return caller.examinerRead;
    case 'organization_info:read':
      return caller.permissions.organization_info === 'VIEW';
    case 'organization_warehouse:read':
      return caller.permissions.organization_warehouse === 'VIEW' || caller.permissions.organization_warehouse === 'WRITE';
    case 'organization_warehouse:write':
      return caller.permissions.organization_warehouse === 'WRITE';
  }
}

export function authorize(
  caller: TokenCaller,
  auth: Extract<EndpointAuth, { kind: 'accessToken' }>,
  pathParams: Record<string, string>,
): void {
  if (auth.organizationParam) {
    if (caller.installationId === null) throw forbidden('This endpoint acts on an organization: use an installation access token');
    if (pathParams[auth.organizationParam] !== caller.organizationId) {
      throw forbidden("The access token's installation belongs to another organization");
    }
  }
  if (auth.permission && !hasPermission(caller, auth.permission)) throw forbidden(`Missing permission ${auth.permission}`);
}

/**
 * With a rate limit, two budgets: each app's, spent by every authenticated request of the app (its
 * JWT and all its tokens together, so minting more tokens buys nothing), and each client address's
 * budget of failed authentications (401): once spent, every request from that address is 429 until
 * it refills, so guessing tokens or JWTs cannot go faster than the limit (exactly: at most the limit
 * of 401s, and of failed JWT signature checks, per window, however many processes answer).
 */
export function createAuthenticator(
  ctx: RegistryContext,
  options: { rateLimit?: RateLimitOptions; onSignatureCheck?: () => void } = {},
): Authenticator {
  const limit = options.rateLimit;
  // on PostgreSQL the buckets are the database's, shared by every server process (rate-limit.ts)
  const budget = (): RateBudget | undefined =>
    limit && (ctx.db.engine === 'postgres' ? new DatabaseRateLimiter(ctx, limit) : new RateLimiter(limit, () => ctx.clock.now()));
  const perApp = budget();
  const failures = budget();
  const takeApp = (appId: string) => perApp?.take(`app:${appId}`, 'Too many requests for this app (over all its tokens); retry later');

  /** The caller of credentials other than an access token. */
  async function callerOfOther(auth: EndpointAuth, bearer: string, beforeSignature: () => void): Promise<Caller> {
    if (auth.kind === 'appJwt') {
      if (looksLikeAccessToken(bearer) || looksLikeOperatorToken(bearer)) throw unauthorized('Expected an app JWT, not an access token');
      const appId = await verifyAppJwt(ctx, bearer, beforeSignature);
      takeApp(appId);
      return { kind: 'app' as const, appId };
    }
    const operator =
      auth.kind === 'operatorJwt' ? await verifyOperatorJwt(ctx, bearer, beforeSignature) : callerOfOperatorToken(ctx, bearer);
    perApp?.take(`operator:${operator.operatorId}`, 'Too many requests for this operator; retry later');
    return operator;
  }

  /** The caller, and `along`'s rows (none without it), once the caller is authenticated and allowed. */
  async function resolve<R>(
    { authorization, endpointId, pathParams }: AuthenticationRequest,
    beforeSignature: () => void,
    along: BoundRead<R> | undefined,
  ): Promise<{ caller: Caller; rows: R[] }> {
    const auth = endpoints[endpointId].auth;
    const bearer = bearerOf(authorization);
    if (auth.kind !== 'accessToken') {
      const caller = await callerOfOther(auth, bearer, beforeSignature);
      return { caller, rows: along ? (await ctx.db.allAsyncTogether(along))[0] : [] };
    }
    if (looksLikeOperatorToken(bearer)) throw unauthorized('Operator tokens are for the operator endpoints (/operator/v1/...) only');
    const { caller, rows } = await callerOfToken(ctx, bearer, along);
    takeApp(caller.appId);
    authorize(caller, auth, pathParams);
    return { caller, rows };
  }

  /** resolve within the failed-authentication budget of the client's address. */
  async function budgeted<R>(request: AuthenticationRequest, along: BoundRead<R> | undefined): Promise<{ caller: Caller; rows: R[] }> {
    const { clientAddress = 'unknown' } = request;
    const addressKey = `address:${clientAddress}`;
    const tooMany = 'Too many failed authentications from this address; retry later';
    failures?.check(addressKey, tooMany);
    // A JWT's signature check is the costly step, and it awaits: a burst of forged JWTs would all
    // pass the check above before the first failure is counted. So a JWT takes its share of the
    // budget BEFORE its signature is checked (past the budget: 429, unchecked), and gets it back
    // only when it proves to be no failed authentication: at most the budget of signature checks
    // per address and window fail.
    let reserved = false;
    const beforeSignature = () => {
      failures?.take(addressKey, tooMany);
      reserved = true;
      options.onSignatureCheck?.();
    };
    let failed = false;
    try {
      return await resolve(request, beforeSignature, along);
    } catch (error) {
      failed = error instanceof RegistryError && error.kind === 'unauthorized';
      // Counting the failure is one atomic take: when other processes spent the last of the
      // budget since the check above, this failure is answered 429, never counted beyond it.
      if (failed && !reserved) failures?.take(addressKey, tooMany);
      throw error;
    } finally {
      if (reserved && !failed) failures?.refund(addressKey);
    }
  }

  return {
    authenticate: async (request) => (await budgeted(request, undefined)).caller,
    authenticateWith: (request, read) => budgeted(request, read),
  };
}

// Access tokens for the desk: an app token (public data, examiner:read when granted) and one
// installation token per organization. Each is cached until shortly before it expires, concurrent
// callers share one request (grant-cache.ts), and `invalidate` lets the client drop a token the
// registry refused.
import type { Clock } from '@platform/clock';
import { operatorResources } from '@shared/registry/operator-resources';
import { tolerant, type AccessToken } from '@shared/registry/resources';
import { mintAppJwt, type PrivateKeyLoader } from './app-jwt';
import { RegistryClientError } from './errors';
import { createGrantCache, type TokenGrant, type TokenScope } from './grant-cache';
import {
  fetchTransport,
  httpError,
  NetworkError,
  sendHttp,
  type FetchLike,
  type HttpAnswer,
  type HttpRequest,
  type HttpTransport,
} from './http';

export { DEFAULT_REFRESH_AHEAD_MS, scopeKey, type TokenGrant, type TokenScope } from './grant-cache';

export interface TokenManagerOptions {
  baseUrl: string;
  appId: string;
  /** Called whenever a JWT must be signed; the key is never kept by the manager. */
  loadPrivateKey: PrivateKeyLoader;
  clock: Clock;
  /**
   * How the token requests are sent: the registry client's transport, so both share one pool of
   * connections (connection-runtime.ts); without it, `fetch` (or the global fetch).
   */
  transport?: HttpTransport;
  fetch?: FetchLike;
  /** The operator account this desk acts as on the operator endpoints, and its private key. */
  operator?: { operatorId: string; loadPrivateKey: PrivateKeyLoader };
  /**
   * How far the registry's clock is ahead of `clock` (ms; null while unknown), from its answers'
   * Date headers. A JWT is stamped on the registry's clock, which judges it: a desk whose clock is
   * behind by more than the JWT's backdating would otherwise be refused "expired" at every grant.
   */
  registryClockOffsetMs?: () => number | null;
  /** Tokens with less than this left are replaced before use (default 5 minutes). */
  refreshAheadMs?: number;
  timeoutMs?: number;
}

export interface TokenManager {
  /** A usable access token for the scope, from cache or freshly obtained. */
  get(scope: TokenScope): Promise<string>;
  /** The cached grant (permissions, expiry), obtaining one if needed. */
  grant(scope: TokenScope): Promise<TokenGrant>;
  /**
   * Forgets the cached token of a scope so the next `get` obtains a new one. With `token`, only
   * when that is still the cached one: a 401 on an old token must not discard a newer one.
   */
  invalidate(scope: TokenScope, token?: string): void;
  /** A fresh app JWT, for the app endpoints (installations). */
  appJwt(): Promise<string>;
  /** Drops every cached token (e.g. when the connection's key is re-imported). */
  clear(): void;
  /**
   * Calls `listener` after every `clear()`, until the returned function is called: a copy of this
   * manager's grants kept elsewhere (the sync worker's) must be dropped with them.
   */
  onClear(listener: () => void): () => void;
}

export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const transport = options.transport ?? fetchTransport(options.fetch ?? fetch);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const clearListeners = new Set<() => void>();

  const signingClock: Clock = { now: () => options.clock.now() + (options.registryClockOffsetMs?.() ?? 0) };
  const appJwt = () => mintAppJwt({ appId: options.appId, clock: signingClock, loadPrivateKey: options.loadPrivateKey });

  /**
   * Sends a token request, and once more if the connection failed under it. A kept-alive connection
   * the registry closed (its idle timeout, or a restart) fails the next request sent on it before any
   * answer, and fetch does not resend a POST; asking for a token twice only issues another token, so
   * the request is built again (a fresh JWT) and sent on a new connection. A second failure is
   * reported. The same on every transport: the node:http one is told not to resend it on its own.
   */
  async function sendTokenRequest(build: () => Promise<HttpRequest>): Promise<HttpAnswer> {
    const send = async () => sendHttp(transport, options.baseUrl, { ...(await build()), transportResends: false });
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      return send();
    }
  }

  /** An operator token: the operator's own JWT exchanged at POST /operator/v1/tokens (1 hour). */
  async function obtainOperator(): Promise<TokenGrant> {
    const operator = options.operator;
    const endpoint = 'createOperatorToken';
    if (!operator) throw new RegistryClientError('invalid_request', 'This connection has no operator account', { endpoint });
    const request = { method: 'POST', path: '/operator/v1/tokens', endpoint, body: {}, timeoutMs };
    const sentAt = options.clock.now();
    const response = await sendTokenRequest(async () => ({
      ...request,
      bearer: await mintAppJwt({ appId: operator.operatorId, clock: signingClock, loadPrivateKey: operator.loadPrivateKey }),
    }));
    if (!response.ok) throw await httpError(response, request);
    const result = operatorResources(tolerant).operatorToken.safeParse(await response.json().catch(() => null));
    if (!result.success) {
      throw new RegistryClientError('invalid_response', 'POST /operator/v1/tokens: the answer is not an operator token', { endpoint });
    }
    // The lifetime on the registry's clock (its Date header to expiresAt), counted from when we asked.
    const registryNow = Date.parse(response.headers.get('date') ?? '');
    const lifetime = Date.parse(result.data.expiresAt) - (Number.isFinite(registryNow) ? registryNow : sentAt);
    return { token: result.data.token, expiresAtLocal: sentAt + lifetime, permissions: {} };
  }

  async function obtain(scope: TokenScope): Promise<TokenGrant> {
    if (scope.kind === 'operator') return obtainOperator();
    const path = scope.kind === 'app' ? '/app/accessTokens' : `/app/installations/${encodeURIComponent(scope.installationId)}/accessTokens`;
    const endpoint = scope.kind === 'app' ? 'createAppAccessToken' : 'createInstallationAccessToken';
    const request = { method: 'POST', path, endpoint, body: {}, timeoutMs };
    const sentAt = options.clock.now();
    const response = await sendTokenRequest(async () => ({ ...request, bearer: await appJwt() }));
    if (!response.ok) throw await httpError(response, request);
    let parsed: AccessToken;
    try {
      const result = tolerant.accessToken.safeParse(await response.json());
      if (!result.success) throw new Error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      parsed = result.data;
    } catch (error) {
      throw new RegistryClientError(
        'invalid_response',
        `POST ${path}: the token answer is not an access token (${(error as Error).message})`,
        { endpoint },
      );
    }
    // Measure the lifetime on the registry's clock (createdAt → expiresAt) and count it from when
    // we asked, on ours: a skew between the two clocks then cannot make us use an expired token.
    const lifetime = Date.parse(parsed.expiresAt) - Date.parse(parsed.createdAt);
    return { token: parsed.token, expiresAtLocal: sentAt + lifetime, permissions: parsed.permissions };
  }

  const grants = createGrantCache({
    obtain,
    clock: options.clock,
    ...(options.refreshAheadMs !== undefined ? { refreshAheadMs: options.refreshAheadMs } : {}),
  });

  return {
    grant: grants.grant,
    get: async (scope) => (await grants.grant(scope)).token,
    invalidate: grants.invalidate,
    appJwt,
    clear() {
      grants.clear();
      for (const listener of [...clearListeners]) listener();
    },
    onClear(listener) {
      clearListeners.add(listener);
      return () => void clearListeners.delete(listener);
    },
  };
}

// Verifies the JWT an app signs to prove itself (compatibility.md, Apps): RS256 only, `iss` a known
// app, `iat` and `exp` present, `exp` at most 10 minutes after `iat`, 60 s of clock skew either way.
// An `alg` claim in the payload is tolerated (some clients add one).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { RegistryContext } from '../registry/context';
import { unauthorized } from '../registry/errors';

export const MAX_JWT_LIFETIME_S = 600;
export const CLOCK_SKEW_S = 60;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
export const looksLikeJwt = (value: string): boolean => JWT_SHAPE.test(value);

const keyCache = new WeakMap<RegistryContext, Map<string, { pem: string; key: KeyObject }>>();

function appKey(ctx: RegistryContext, appId: string): KeyObject | undefined {
  const row = ctx.db.prepare('SELECT public_key_pem FROM apps WHERE id = ?').get(appId) as { public_key_pem: string } | undefined;
  if (!row) return undefined;
  let cache = keyCache.get(ctx);
  if (!cache) keyCache.set(ctx, (cache = new Map<string, { pem: string; key: KeyObject }>()));
  const cached = cache.get(appId);
  if (cached && cached.pem === row.public_key_pem) return cached.key;
  const key = createPublicKey(row.public_key_pem);
  cache.set(appId, { pem: row.public_key_pem, key });
  return key;
}

/** Returns the app id the JWT proves; throws a 401 RegistryError for anything else. */
export async function verifyAppJwt(ctx: RegistryContext, jwt: string): Promise<string> {
  if (!looksLikeJwt(jwt)) throw unauthorized('Expected an app JWT in the Authorization header');
  let alg: string | undefined;
  let iss: unknown;
  try {
    alg = decodeProtectedHeader(jwt).alg;
    iss = decodeJwt(jwt).iss;
  } catch {
    throw unauthorized('Malformed JWT');
  }
  if (alg !== 'RS256') throw unauthorized('App JWTs must be signed with RS256');
  if (typeof iss !== 'string' || iss === '') throw unauthorized('The JWT has no iss claim (the app id)');
  const key = appKey(ctx, iss);
  if (!key) throw unauthorized('Unknown app');
  const nowS = Math.floor(ctx.clock.now() / 1000);
  let payload;
  try {
    ({ payload } = await jwtVerify(jwt, key, {
      algorithms: ['RS256'],
      issuer: iss,
      clockTolerance: CLOCK_SKEW_S,
      currentDate: new Date(ctx.clock.now()),
      requiredClaims: ['iat', 'exp'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('The JWT has expired');
    if (error instanceof joseErrors.JWTClaimValidationFailed) throw unauthorized(`Invalid JWT claim: ${error.claim}`);
    throw unauthorized('Invalid JWT signature');
  }
  const iat = payload.iat!;
  const exp = payload.exp!;
  if (iat > nowS + CLOCK_SKEW_S) throw unauthorized('The JWT was issued in the future (iat)');
  if (exp - iat > MAX_JWT_LIFETIME_S + CLOCK_SKEW_S) throw unauthorized('The JWT lives too long: exp must be at most 10 minutes after iat');
  return iss;
}

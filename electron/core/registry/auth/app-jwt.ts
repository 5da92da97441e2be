// Verifies the JWT an app signs to prove itself (compatibility.md, Apps): RS256 only, `iss` a known
// app, `iat` and `exp` present, `exp` at most 10 minutes after `iat`, 60 s of clock skew either way.
// An `alg` claim in the payload is tolerated (some clients add one).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { RegistryContext } from '../context';
import { unauthorized } from '../errors';

export const MAX_JWT_LIFETIME_S = 600;
export const CLOCK_SKEW_S = 60;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
export const looksLikeJwt = (value: string): boolean => JWT_SHAPE.test(value);

const keyCache = new WeakMap<RegistryContext, Map<string, { pem: string; key: KeyObject }>>();

/** The parsed public key of a PEM, cached per registry and signer (`app:<id>`, `operator:<id>`). */
export function cachedPublicKey(ctx: RegistryContext, signer: string, pem: string): KeyObject {
  let cache = keyCache.get(ctx);
  if (!cache) keyCache.set(ctx, (cache = new Map<string, { pem: string; key: KeyObject }>()));
  const cached = cache.get(signer);
  if (cached && cached.pem === pem) return cached.key;
  const key = createPublicKey(pem);
  cache.set(signer, { pem, key });
  return key;
}

function appKey(ctx: RegistryContext, appId: string): KeyObject | undefined {
  const row = ctx.db.first(ctx.db.q.selectFrom('apps').select('public_key_pem').where('id', '=', appId));
  return row ? cachedPublicKey(ctx, `app:${appId}`, row.public_key_pem) : undefined;
}

/** Returns the app id the JWT proves; throws a 401 RegistryError for anything else. */
export function verifyAppJwt(ctx: RegistryContext, jwt: string, beforeSignature?: () => void): Promise<string> {
  return verifySignedJwt(ctx, jwt, { signer: 'app', keyOf: (iss) => appKey(ctx, iss), ...(beforeSignature ? { beforeSignature } : {}) });
}

/** What a JWT check asks of its signer, and who is told just before the (costly) signature check. */
export interface SignedJwtCheck {
  signer: 'app' | 'operator';
  keyOf: (iss: string) => KeyObject | undefined;
  /** Runs just before the RSA signature check; throwing refuses the JWT unchecked (the caller's budget). */
  beforeSignature?: () => void;
}

/**
 * Checks a JWT a signer (an app, an operator) made with its private key: RS256 only, `iss` a known
 * signer whose public key `keyOf` gives, `iat` and `exp` present, at most 10 minutes apart, 60 s of
 * skew. Returns `iss`; throws a 401 RegistryError for anything else. Only the signature check is
 * costly (an RSA verification): everything before it is parsing and one keyed lookup.
 */
export async function verifySignedJwt(
  ctx: RegistryContext,
  jwt: string,
  { signer, keyOf, beforeSignature }: SignedJwtCheck,
): Promise<string> {
  const Signer = signer === 'app' ? 'App' : 'Operator';
  if (!looksLikeJwt(jwt)) throw unauthorized(`Expected an ${signer} JWT in the Authorization header`);
  let alg: string | undefined;
  let iss: unknown;
  try {
    alg = decodeProtectedHeader(jwt).alg;
    iss = decodeJwt(jwt).iss;
  } catch {
    throw unauthorized('Malformed JWT');
  }
  if (alg !== 'RS256') throw unauthorized(`${Signer} JWTs must be signed with RS256`);
  if (typeof iss !== 'string' || iss === '') throw unauthorized(`The JWT has no iss claim (the ${signer} id)`);
  const key = keyOf(iss);
  if (!key) throw unauthorized(`Unknown ${signer}`);
  beforeSignature?.();
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

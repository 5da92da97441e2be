// Operator tokens: an operator proves itself with a JWT signed by its private key (checked like app
// JWTs: RS256, iss = operator id, iat/exp at most 10 minutes apart) and gets an opaque token that
// lives 1 hour, stored only as its SHA-256 hash. The token's prefix differs from access tokens', so
// each kind is refused by the other interface's endpoints. Every request checks the operator
// account, so disabling it stops its tokens at once.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OperatorRole } from '@shared/registry/vocabulary';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { unauthorized } from '../errors';
import { cachedPublicKey, looksLikeJwt, verifySignedJwt } from './app-jwt';
import { hashToken, looksLikeAccessToken } from './tokens';

export const OPERATOR_TOKEN_PREFIX = 'rdo_';
export const OPERATOR_TOKEN_TTL_MS = 60 * 60 * 1000;

export const looksLikeOperatorToken = (value: string): boolean => /^rdo_[0-9a-f]{48}$/.test(value);

export interface OperatorCaller {
  kind: 'operator';
  operatorId: string;
  name: string;
  role: OperatorRole;
  /** The token's id; null while the operator signs in with its JWT. */
  tokenId: string | null;
}

const operatorKey = (v: { id: string }, q: Kysely<RegistryTables>) =>
  q.selectFrom('operators').select(['id', 'name', 'role', 'active', 'public_key_pem']).where('id', '=', v.id);
const operatorKeyOf = (ctx: RegistryContext, id: string) => ctx.db.prepared(operatorKey).first({ id });

/** An operator token with its operator, read on every operator request: compiled once per connection. */
const operatorTokenCaller = (v: { hash: string }, q: Kysely<RegistryTables>) =>
  q
    .selectFrom('operator_tokens as t')
    .innerJoin('operators as o', 'o.id', 't.operator_id')
    .select(['t.id as token_id', 't.expires_at', 'o.id', 'o.name', 'o.role', 'o.active'])
    .where('t.token_hash', '=', v.hash);

/** The operator a signed JWT proves (active accounts only); throws 401 otherwise. */
export async function verifyOperatorJwt(ctx: RegistryContext, jwt: string, beforeSignature?: () => void): Promise<OperatorCaller> {
  if (looksLikeAccessToken(jwt) || looksLikeOperatorToken(jwt)) throw unauthorized('Expected an operator JWT, not a token');
  let row: ReturnType<typeof operatorKeyOf>;
  const operatorId = await verifySignedJwt(ctx, jwt, {
    signer: 'operator',
    keyOf: (iss) => {
      row = operatorKeyOf(ctx, iss);
      return row ? cachedPublicKey(ctx, `operator:${iss}`, row.public_key_pem) : undefined;
    },
    ...(beforeSignature ? { beforeSignature } : {}),
  });
  if (!row || row.id !== operatorId) throw unauthorized('Unknown operator');
  if (row.active !== 1) throw unauthorized('The operator account is disabled');
  return { kind: 'operator', operatorId, name: row.name, role: row.role, tokenId: null };
}

export function issueOperatorToken(ctx: RegistryContext, operatorId: string): { token: string; expiresAt: string } {
  const token = `${OPERATOR_TOKEN_PREFIX}${randomBytes(24).toString('hex')}`;
  const now = ctx.clock.now();
  const expiresAt = now + OPERATOR_TOKEN_TTL_MS;
  ctx.db.run(
    ctx.db.q
      .insertInto('operator_tokens')
      .values({ id: ctx.newId(), token_hash: hashToken(token), operator_id: operatorId, created_at: now, expires_at: expiresAt }),
  );
  return { token, expiresAt: iso(expiresAt) };
}

/** The operator an operator token belongs to; 401 for anything else (an access token, a JWT, expired, disabled). */
export function callerOfOperatorToken(ctx: RegistryContext, token: string): OperatorCaller {
  if (looksLikeJwt(token)) throw unauthorized('Expected an operator token, not a JWT (POST /operator/v1/tokens exchanges one)');
  if (looksLikeAccessToken(token)) throw unauthorized('Expected an operator token, not an access token');
  if (!looksLikeOperatorToken(token)) throw unauthorized('Invalid operator token');
  const row = ctx.db.prepared(operatorTokenCaller).first({ hash: hashToken(token) });
  if (!row) throw unauthorized('Invalid operator token');
  if (row.expires_at <= ctx.clock.now()) throw unauthorized('The operator token has expired');
  if (row.active !== 1) throw unauthorized('The operator account is disabled');
  return { kind: 'operator', operatorId: row.id, name: row.name, role: row.role, tokenId: row.token_id };
}

/** Deletes operator tokens that expired more than a day ago. */
export function purgeOperatorTokens(ctx: RegistryContext): number {
  const { db } = ctx;
  return db.run(db.q.deleteFrom('operator_tokens').where('expires_at', '<', ctx.clock.now() - 24 * 60 * 60 * 1000)).changes;
}

// Test support for the operator interface: operator accounts with their keys, their signed JWTs,
// and operator tokens got over HTTP.
import { SignJWT } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { OperatorRole } from '@shared/registry/vocabulary';
import type { OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import { rsaKeyPair, type TestRegistry } from './registry';

export interface TestOperator {
  id: string;
  role: OperatorRole;
  privateKey: KeyObject;
  jwt(options?: { lifetimeS?: number; iatOffsetS?: number }): Promise<string>;
}

export function createTestOperator(registry: OpenedRegistry, role: OperatorRole, keyIndex = 2): TestOperator {
  const keys = rsaKeyPair(keyIndex);
  const { operator } = ops.createOperator(registry, {
    name: `${role} ${registry.newId().slice(0, 6)}`,
    role,
    publicKeyPem: keys.publicKeyPem,
  });
  return {
    id: operator.id,
    role,
    privateKey: keys.privateKey,
    async jwt({ lifetimeS = 660, iatOffsetS = -60 } = {}) {
      const iat = Math.floor(registry.clock.now() / 1000) + iatOffsetS;
      return new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setIssuer(operator.id)
        .setIssuedAt(iat)
        .setExpirationTime(iat + lifetimeS)
        .sign(keys.privateKey);
    },
  };
}

/** An operator token over HTTP (POST /operator/v1/tokens, 201). */
export async function operatorToken(t: TestRegistry, operator: TestOperator): Promise<string> {
  const res = await t.call('/operator/v1/tokens', { method: 'POST', token: await operator.jwt(), body: '{}' });
  if (res.status !== 201) throw new Error(`operator token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Audit entries, oldest first, read straight from the database. */
export function auditRows(
  registry: OpenedRegistry,
): { operator_id: string | null; action: string; outcome: string; target_ids: string; detail: string }[] {
  return registry.db.raw.prepare('SELECT operator_id, action, outcome, target_ids, detail FROM audit_log ORDER BY seq').all() as {
    operator_id: string | null;
    action: string;
    outcome: string;
    target_ids: string;
    detail: string;
  }[];
}

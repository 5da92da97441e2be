// The demo's operator accounts, one per role, and the demo audit log's first entries: the seed's own
// actions, with `seed:demo` as their actor. The private keys go to demo-credentials.json only.
import { generateKeyPairSync } from 'node:crypto';
import { OPERATOR_ROLES, type OperatorRole } from '@shared/registry/vocabulary';
import { appendAudit } from '../audit';
import type { RegistryContext } from '../context';
import { createOperator } from '../operations/operators';

export const DEMO_OPERATOR_NAMES: Record<OperatorRole, string> = {
  viewer: 'Vera Viewer (demo)',
  manager: 'Max Manager (demo)',
  administrator: 'Ada Administrator (demo)',
};

export interface DemoOperatorKeys {
  role: OperatorRole;
  publicKeyPem: string;
  privateKeyPem: string;
}

/** Fresh RSA keys, one per role (made before the seed's transaction: slow, and random on purpose). */
export function generateDemoOperatorKeys(): DemoOperatorKeys[] {
  return OPERATOR_ROLES.map((role) => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      role,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
  });
}

export const SEED_ACTOR = { operatorId: null, actor: 'seed:demo' } as const;

export function createDemoOperators(
  ctx: RegistryContext,
  keys: readonly DemoOperatorKeys[],
): { id: string; name: string; role: OperatorRole; privateKeyPem: string }[] {
  return keys.map((k) => {
    const { operator } = createOperator(ctx, { name: DEMO_OPERATOR_NAMES[k.role], role: k.role, publicKeyPem: k.publicKeyPem });
    appendAudit(ctx, {
      ...SEED_ACTOR,
      action: 'operators.create',
      targetIds: [operator.id],
      outcome: 'succeeded',
      detail: { input: { name: operator.name, role: operator.role } },
    });
    return { id: operator.id, name: operator.name, role: operator.role, privateKeyPem: k.privateKeyPem };
  });
}

/** One entry per kind of thing the seed made, with how many (the demo's history before its operators). */
export function auditSeedActions(ctx: RegistryContext, counts: Record<string, number>, sample: Record<string, string[]>): void {
  for (const [action, count] of Object.entries(counts)) {
    appendAudit(ctx, {
      ...SEED_ACTOR,
      action,
      targetIds: (sample[action] ?? []).slice(0, 20),
      outcome: 'succeeded',
      detail: { count, note: 'made by the demo seed' },
    });
  }
}

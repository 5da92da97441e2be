// demo-credentials.json: what a tester needs to call the demo registry as an app (its private
// key, its installations) and to finalize on-chain retirements (wallet keys). Demo-only by design:
// the app's name says "Demo", the file is written with mode 0600, and `npm run serve` says so.
// The shape is fixed (the desk and the end-to-end tests read it), hence the strict schema.
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '@platform/atomic-write.mjs';
import { OPERATOR_ROLES, type InstallationPermissions } from '@shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import { createApp, installApp } from '../operations/apps';
import type { DemoWallet } from './wallets';

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';
export const DEMO_APP_NAME = 'Registry Desk Demo App';

export const demoCredentialsSchema = z.strictObject({
  app: z.strictObject({ id: z.uuid(), name: z.string().min(1), privateKeyPem: z.string().startsWith('-----BEGIN PRIVATE KEY-----') }),
  installations: z.array(z.strictObject({ id: z.uuid(), organizationId: z.uuid(), permissions: z.record(z.string(), z.string()) })).min(1),
  wallets: z.array(
    z.strictObject({
      address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
      privateKey: z.string().regex(/^0x[0-9a-f]{64}$/),
      retirements: z
        .array(z.strictObject({ id: z.uuid(), projectAddress: z.string().regex(/^0x[0-9a-f]{40}$/), tokenId: z.string().regex(/^\d+$/) }))
        .min(1),
    }),
  ),
  /** One operator account per role, for the operator interface (/operator/v1/...). */
  operators: z.array(
    z.strictObject({
      id: z.uuid(),
      name: z.string().min(1),
      role: z.enum(OPERATOR_ROLES),
      privateKeyPem: z.string().startsWith('-----BEGIN PRIVATE KEY-----'),
    }),
  ),
});
export type DemoCredentials = z.infer<typeof demoCredentialsSchema>;

export interface DemoInstallationPlan {
  organizationId: string;
  permissions: InstallationPermissions;
}

/** A fresh RSA key pair for the demo app (RS256 needs RSA; the private key as PKCS#8 PEM). */
export function generateDemoAppKeys(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Registers the demo app (with examiner:read) and installs it; returns the credentials file's content. */
export function createDemoApp(
  ctx: RegistryContext,
  keys: { publicKeyPem: string; privateKeyPem: string },
  installations: readonly DemoInstallationPlan[],
  wallets: readonly DemoWallet[],
  operators: DemoCredentials['operators'] = [],
): DemoCredentials {
  const app = createApp(ctx, {
    name: DEMO_APP_NAME,
    nameId: 'registry-desk-demo',
    publicKeyPem: keys.publicKeyPem,
    examinerRead: true,
  });
  return {
    app: { id: app.id, name: app.name, privateKeyPem: keys.privateKeyPem },
    installations: installations.map((i) => {
      const { id } = installApp(ctx, { appId: app.id, organizationId: i.organizationId, permissions: i.permissions });
      return { id, organizationId: i.organizationId, permissions: { ...i.permissions } };
    }),
    wallets: wallets.map((w) => ({ address: w.address, privateKey: w.privateKey, retirements: w.retirements.map((r) => ({ ...r })) })),
    operators: operators.map((o) => ({ ...o })),
  };
}

/** Writes the file readable by its owner only (0600), atomically. */
export function writeDemoCredentials(dataDir: string, credentials: DemoCredentials): string {
  const file = join(dataDir, DEMO_CREDENTIALS_FILE);
  writeFileAtomicSync(file, `${JSON.stringify(demoCredentialsSchema.parse(credentials), null, 2)}\n`, { mode: 0o600 });
  return file;
}

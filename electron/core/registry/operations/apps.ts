// Apps and their installations: registering an app's RS256 public key, the examiner:read grant,
// installing an app on an organization with its permissions, suspending, resuming and removing it.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { z } from 'zod';
import type { RegistryContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseInput } from '../input';
import { requireOrganization } from './lookups';
import { rsaPublicKeyPem } from './public-keys';
import {
  createAppInput,
  grantExaminerInput,
  installAppInput,
  setInstallationStatusInput,
  removeInstallationInput,
} from '@shared/registry/operator-inputs';
export { createAppInput, grantExaminerInput, installAppInput, setInstallationStatusInput, removeInstallationInput };

function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug.length >= 2 ? slug : `app-${slug}`;
}

export function createApp(ctx: RegistryContext, input: z.input<typeof createAppInput>): { id: string; name: string; nameId: string } {
  const o = parseInput(createAppInput, input);
  const pem = rsaPublicKeyPem(o.publicKeyPem, 'apps');
  const id = o.id ?? ctx.newId();
  const nameId = o.nameId ?? slugify(o.name);
  const now = ctx.clock.now();
  const { db } = ctx;
  return db.transaction(() => {
    if (db.first(db.q.selectFrom('apps').select('id').where('id', '=', id))) throw conflict(`App ${id} already exists`);
    if (db.first(db.q.selectFrom('apps').select('id').where('name_id', '=', nameId))) {
      throw conflict(`An app named ${nameId} already exists`);
    }
    db.run(
      db.q.insertInto('apps').values({
        id,
        name: o.name,
        name_id: nameId,
        public_key_pem: pem,
        examiner_read: o.examinerRead ? 1 : 0,
        created_at: now,
        updated_at: now,
      }),
    );
    return { id, name: o.name, nameId };
  });
}

export function grantExaminer(ctx: RegistryContext, input: z.input<typeof grantExaminerInput>): { appId: string; examinerRead: boolean } {
  const o = parseInput(grantExaminerInput, input);
  const { db } = ctx;
  const result = db.run(
    db.q
      .updateTable('apps')
      .set({ examiner_read: o.granted ? 1 : 0, updated_at: ctx.clock.now() })
      .where('id', '=', o.appId),
  );
  if (result.changes === 0) throw notFound(`App ${o.appId} not found`);
  return { appId: o.appId, examinerRead: o.granted };
}

export function installApp(ctx: RegistryContext, input: z.input<typeof installAppInput>): { id: string } {
  const o = parseInput(installAppInput, input);
  const id = o.id ?? ctx.newId();
  const now = ctx.clock.now();
  const { db } = ctx;
  return db.transaction(() => {
    if (!db.first(db.q.selectFrom('apps').select('id').where('id', '=', o.appId))) throw notFound(`App ${o.appId} not found`);
    requireOrganization(ctx, o.organizationId);
    // ids are unique within their kind only (an installation may share its app's id): name the
    // installation that holds this id, so the refusal cannot be read as being about the app
    const taken = db.first(db.q.selectFrom('installations').select(['app_id', 'organization_id']).where('id', '=', id));
    if (taken) {
      throw conflict(`Installation ${id} already exists: it installs app ${taken.app_id} on organization ${taken.organization_id}`);
    }
    const installed = db.q
      .selectFrom('installations')
      .select('id')
      .where('app_id', '=', o.appId)
      .where('organization_id', '=', o.organizationId);
    if (db.first(installed)) throw conflict(`App ${o.appId} is already installed on organization ${o.organizationId}`);
    db.run(
      db.q.insertInto('installations').values({
        id,
        app_id: o.appId,
        organization_id: o.organizationId,
        permissions: JSON.stringify(o.permissions),
        status: 'active',
        created_at: now,
        updated_at: now,
      }),
    );
    return { id };
  });
}

/** Suspending stops the installation's tokens at once (they are checked against it on every call). */
export function setInstallationStatus(
  ctx: RegistryContext,
  input: z.input<typeof setInstallationStatusInput>,
): { id: string; status: string } {
  const o = parseInput(setInstallationStatusInput, input);
  const { db } = ctx;
  const result = db.run(
    db.q.updateTable('installations').set({ status: o.status, updated_at: ctx.clock.now() }).where('id', '=', o.installationId),
  );
  if (result.changes === 0) throw notFound(`Installation ${o.installationId} not found`);
  return { id: o.installationId, status: o.status };
}

export function removeInstallation(ctx: RegistryContext, input: z.input<typeof removeInstallationInput>): { id: string; removed: true } {
  const o = parseInput(removeInstallationInput, input);
  const { db } = ctx;
  return db.transaction(() => {
    if (!db.first(db.q.selectFrom('installations').select('id').where('id', '=', o.installationId))) {
      throw notFound(`Installation ${o.installationId} not found`);
    }
    db.run(db.q.deleteFrom('access_tokens').where('installation_id', '=', o.installationId));
    db.run(db.q.deleteFrom('installations').where('id', '=', o.installationId));
    return { id: o.installationId, removed: true as const };
  });
}

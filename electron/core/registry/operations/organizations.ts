// Organizations: created by the operator, and marked as having passed business verification.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { sql, type Updateable } from 'kysely';
import { z } from 'zod';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { conflict } from '../errors';
import { parseInput } from '../input';
import { requireOrganization } from './lookups';
import { createOrganizationInput, setOrganizationVerifiedInput, updateOrganizationInput } from '@shared/registry/operator-inputs';
export { createOrganizationInput, setOrganizationVerifiedInput, updateOrganizationInput };

export function createOrganization(ctx: RegistryContext, input: z.input<typeof createOrganizationInput>): { id: string } {
  const o = parseInput(createOrganizationInput, input);
  const id = o.id ?? ctx.newId();
  const now = ctx.clock.now();
  const { db } = ctx;
  return db.transaction(() => {
    // a literal 1, so SQLite can use the partial unique index on the registry's organization
    if (o.isRegistry && db.first(db.q.selectFrom('organizations').select('id').where('is_registry', '=', sql.lit(1)))) {
      throw conflict('The registry operator organization already exists');
    }
    if (db.first(db.q.selectFrom('organizations').select('id').where('id', '=', id))) throw conflict(`Organization ${id} already exists`);
    db.run(
      db.q.insertInto('organizations').values({
        id,
        full_name: o.fullName,
        type: o.type,
        country_code: o.countryCode,
        city: o.city,
        zip: o.zip,
        physical_address: o.physicalAddress,
        registration_number: o.registrationNumber,
        website: o.website,
        logo: o.logo,
        industry_code: o.organizationIndustries.code,
        industry_name: o.organizationIndustries.name,
        is_public: o.isPublic ? 1 : 0,
        is_verified: o.verified ? 1 : 0,
        is_registry: o.isRegistry ? 1 : 0,
        created_at: now,
        updated_at: now,
      }),
    );
    return { id };
  });
}

export function setOrganizationVerified(
  ctx: RegistryContext,
  input: z.input<typeof setOrganizationVerifiedInput>,
): { id: string; verified: boolean } {
  const o = parseInput(setOrganizationVerifiedInput, input);
  requireOrganization(ctx, o.organizationId);
  const { db } = ctx;
  db.run(
    db.q
      .updateTable('organizations')
      .set({ is_verified: o.verified ? 1 : 0, updated_at: ctx.clock.now() })
      .where('id', '=', o.organizationId),
  );
  return { id: o.organizationId, verified: o.verified };
}

/**
 * Edits an organization (any, verified or not); answers the fields the edit named (the audit entry
 * keeps them with the input). `null` clears an optional field to the empty value it is created with.
 */
export function updateOrganization(
  ctx: RegistryContext,
  input: z.input<typeof updateOrganizationInput>,
): { id: string; changed: string[] } {
  const o = parseInput(updateOrganizationInput, input);
  const { db } = ctx;
  return db.transaction(() => {
    requireOrganization(ctx, o.organizationId);
    const changed = Object.keys(o).filter((k) => k !== 'organizationId' && o[k as keyof typeof o] !== undefined);
    const set: Updateable<RegistryTables['organizations']> = {};
    if (o.fullName !== undefined) set.full_name = o.fullName;
    if (o.type !== undefined) set.type = o.type;
    if (o.countryCode !== undefined) set.country_code = o.countryCode;
    if (o.city !== undefined) set.city = o.city ?? '';
    if (o.zip !== undefined) set.zip = o.zip ?? '';
    if (o.physicalAddress !== undefined) set.physical_address = o.physicalAddress ?? '';
    if (o.registrationNumber !== undefined) set.registration_number = o.registrationNumber ?? '';
    if (o.website !== undefined) set.website = o.website ?? '';
    if (o.logo !== undefined) set.logo = o.logo ?? '';
    if (o.organizationIndustries !== undefined) {
      set.industry_code = o.organizationIndustries?.code ?? '';
      set.industry_name = o.organizationIndustries?.name ?? '';
    }
    if (o.isPublic !== undefined) set.is_public = o.isPublic ? 1 : 0;
    db.run(
      db.q
        .updateTable('organizations')
        .set({ ...set, updated_at: ctx.clock.now() })
        .where('id', '=', o.organizationId),
    );
    return { id: o.organizationId, changed };
  });
}

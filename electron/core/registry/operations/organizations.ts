// Organizations: created by the operator, and marked as having passed business verification.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema stands beside it (the CLI builds its flags from it).
import { sql } from 'kysely';
import { z } from 'zod';
import { ORGANIZATION_TYPES } from '../../../../shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import { conflict } from '../errors';
import { countryCode, parseInput, requiredText, text } from '../input';
import { requireOrganization } from './lookups';

export const createOrganizationInput = z.object({
  id: z.uuid().optional(),
  fullName: requiredText(200),
  type: z.enum(ORGANIZATION_TYPES).default('projectProponent'),
  countryCode: countryCode,
  city: text(100).default(''),
  zip: text(20).default(''),
  physicalAddress: text(300).default(''),
  registrationNumber: text(60).default(''),
  website: text(300).default(''),
  logo: text(500).default(''),
  organizationIndustries: z.object({ code: text(20), name: text(120) }).default({ code: '', name: '' }),
  isPublic: z.boolean().default(true),
  verified: z.boolean().default(false),
  isRegistry: z.boolean().default(false),
});

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

export const setOrganizationVerifiedInput = z.object({ organizationId: requiredText(), verified: z.boolean() });

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

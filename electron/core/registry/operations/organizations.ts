// Organizations: created by the operator, and marked as having passed business verification.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema stands beside it (the CLI builds its flags from it).
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
  return ctx.db.transaction(() => {
    if (o.isRegistry && ctx.db.prepare('SELECT 1 FROM organizations WHERE is_registry = 1').get()) {
      throw conflict('The registry operator organization already exists');
    }
    if (ctx.db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(id)) throw conflict(`Organization ${id} already exists`);
    ctx.db
      .prepare(
        `INSERT INTO organizations (id, full_name, type, country_code, city, zip, physical_address, registration_number, website, logo,
           industry_code, industry_name, is_public, is_verified, is_registry, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        o.fullName,
        o.type,
        o.countryCode,
        o.city,
        o.zip,
        o.physicalAddress,
        o.registrationNumber,
        o.website,
        o.logo,
        o.organizationIndustries.code,
        o.organizationIndustries.name,
        o.isPublic ? 1 : 0,
        o.verified ? 1 : 0,
        o.isRegistry ? 1 : 0,
        now,
        now,
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
  ctx.db
    .prepare('UPDATE organizations SET is_verified = ?, updated_at = ? WHERE id = ?')
    .run(o.verified ? 1 : 0, ctx.clock.now(), o.organizationId);
  return { id: o.organizationId, verified: o.verified };
}

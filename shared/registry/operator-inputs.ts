// The inputs of the registry operator's operations, one zod schema each: the operations parse them
// (electron/core/registry/operations), the CLI builds its flags from them, and the operator rows of
// the endpoint table take them as request bodies (so /openapi.json and the typed client show them).
// Shared because the endpoint table is; nothing here touches Node or the database.
import { z } from 'zod';
import { WALLET_ADDRESS } from './identifiers';
import { isWebAddress, WEB_ADDRESS_MESSAGE, WEBSITE_PATTERN } from './web-address';
import { CREDIT_TYPES, OPERATOR_ROLES, ORGANIZATION_TYPES, PERMISSION_LEVELS } from './vocabulary';
import {
  text,
  requiredText,
  idInput,
  dateInput,
  tonnesInput,
  countryCode,
  publicKeyPemInput,
  somethingToChangeIn,
} from './operator-fields';

export * from './operator-fields';
export * from './operator-project-inputs';

// ---- operations -----------------------------------------------------------------------------------

/** Shapes shared by the creation and the edit of an organization. */
const organizationFields = {
  fullName: requiredText(200),
  type: z.enum(ORGANIZATION_TYPES),
  city: text(100),
  zip: text(20),
  physicalAddress: text(300),
  registrationNumber: text(60),
  website: text(300)
    .refine((s) => s === '' || isWebAddress(s), WEB_ADDRESS_MESSAGE)
    .meta({ pattern: WEBSITE_PATTERN }),
  logo: text(500),
  organizationIndustries: z.object({ code: text(20), name: text(120) }),
};

export const createOrganizationInput = z.object({
  id: z.uuid().optional(),
  fullName: organizationFields.fullName,
  type: organizationFields.type.default('projectProponent'),
  countryCode: countryCode,
  city: organizationFields.city.default(''),
  zip: organizationFields.zip.default(''),
  physicalAddress: organizationFields.physicalAddress.default(''),
  registrationNumber: organizationFields.registrationNumber.default(''),
  website: organizationFields.website.default(''),
  logo: organizationFields.logo.default(''),
  organizationIndustries: organizationFields.organizationIndustries.default({ code: '', name: '' }),
  isPublic: z.boolean().default(true),
  verified: z.boolean().default(false),
  isRegistry: z.boolean().default(false),
});

/**
 * An edit of an organization: every field given replaces the stored one; `null` clears an optional
 * one (city, zip, physicalAddress, registrationNumber, website, logo, organizationIndustries: stored
 * empty, as when created without it). The id, the verification (its own endpoint) and whether it is
 * the registry's own organization are not edited here; an unknown or one of those fields is refused.
 */
const updateOrganizationShape = z.strictObject({
  organizationId: idInput(),
  fullName: organizationFields.fullName.optional(),
  type: organizationFields.type.optional(),
  countryCode: countryCode.optional(),
  city: organizationFields.city.nullable().optional(),
  zip: organizationFields.zip.nullable().optional(),
  physicalAddress: organizationFields.physicalAddress.nullable().optional(),
  registrationNumber: organizationFields.registrationNumber.nullable().optional(),
  website: organizationFields.website.nullable().optional(),
  logo: organizationFields.logo.nullable().optional(),
  organizationIndustries: organizationFields.organizationIndustries.nullable().optional(),
  isPublic: z.boolean().optional(),
});
export const updateOrganizationInput = updateOrganizationShape.refine(...somethingToChangeIn('organization', 'organizationId'));
/** The HTTP body of the edit (the organization is the path's). */
export const updateOrganizationBody = updateOrganizationShape
  .omit({ organizationId: true })
  .refine(...somethingToChangeIn('organization', 'organizationId'))
  .meta({ minProperties: 1 });

export const setOrganizationVerifiedInput = z.object({ organizationId: idInput(), verified: z.boolean() });

// issuance
export const issueCreditsInput = z
  .object({
    projectId: idInput(),
    vintage: z.string().regex(/^\d{4}$/, 'must be a four-digit year'),
    type: z.enum(CREDIT_TYPES).default('exPost'),
    amount: tonnesInput,
    /** Share to the buffer account in basis points; the registry default when omitted. */
    bufferBasisPoints: z.number().int().min(0).max(10_000).optional(),
    monitoringPeriodStart: dateInput,
    monitoringPeriodEnd: dateInput,
    verificationBodyId: idInput(),
    /** The organization whose inventory receives the credits: one of the project's proponents; its owner when omitted. */
    receivingOrganizationId: idInput().optional(),
    files: z
      .array(
        z.object({ fileName: requiredText(300), size: z.number().int().nonnegative(), url: requiredText(1000), type: requiredText(60) }),
      )
      .default([]),
  })
  // a rule across fields, which JSON Schema cannot state: said in words in /openapi.json
  .meta({ description: 'monitoringPeriodEnd must not be before monitoringPeriodStart (400 otherwise).' });

// transfers
const accountRefInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['inventory', 'warehouse']), organizationId: idInput() }),
  z.object({ kind: z.enum(['buffer', 'adjustment', 'registry']) }),
  z.object({ kind: z.literal('wallet'), address: z.string().regex(WALLET_ADDRESS, 'must be a 0x wallet address') }),
]);

export const warehouseMoveInput = z.object({ organizationId: idInput(), creditId: idInput(), amount: tonnesInput });

export const transferCreditsInput = z
  .object({
    from: accountRefInput,
    to: accountRefInput,
    creditId: idInput(),
    amount: tonnesInput,
  })
  .meta({ description: 'from and to must be different accounts: a transfer to the account it comes from is 400.' });

/** A cancellation takes credits out of circulation for good; its reason is kept with its movement. */
export const cancelCreditsInput = z.object({
  from: accountRefInput,
  creditId: idInput(),
  amount: tonnesInput,
  reason: requiredText(500),
});

// retirements
export const retireFromInventoryInput = z.object({
  organizationId: idInput(),
  creditId: idInput(),
  amount: tonnesInput,
  beneficiary: requiredText(300),
  reason: requiredText(500),
  comment: text(2000).default(''),
});

export const recordOnchainRetirementInput = z.object({
  walletAddress: z.string().regex(WALLET_ADDRESS, 'must be a 0x wallet address'),
  creditId: idInput(),
  amount: tonnesInput,
  /** Where the wallet got the credits from, when they are not yet in the wallet's account. */
  fromOrganizationId: idInput().optional(),
  createdAt: dateInput.optional(),
});

// apps
export const createAppInput = z.object({
  id: z.uuid().optional(),
  name: requiredText(120),
  nameId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be a lowercase slug')
    .optional(),
  publicKeyPem: publicKeyPemInput,
  examinerRead: z.boolean().default(false),
});

export const grantExaminerInput = z.object({ appId: idInput(), granted: z.boolean().default(true) });

const permissionsInput = z
  .record(z.string(), z.string())
  .superRefine((perms, ctx) => {
    for (const [key, level] of Object.entries(perms)) {
      const allowed = (PERMISSION_LEVELS as Record<string, readonly string[]>)[key];
      if (!allowed) ctx.addIssue({ code: 'custom', message: `unknown permission ${key}`, path: [key] });
      else if (!allowed.includes(level)) ctx.addIssue({ code: 'custom', message: `${key} accepts ${allowed.join(' or ')}`, path: [key] });
    }
  })
  // the check above, as JSON Schema says it: the known permission keys, each with its levels
  .meta({
    properties: Object.fromEntries(Object.entries(PERMISSION_LEVELS).map(([key, levels]) => [key, { type: 'string', enum: [...levels] }])),
    additionalProperties: false,
  });

export const installAppInput = z.object({
  id: z.uuid().optional(),
  appId: idInput(),
  organizationId: idInput(),
  permissions: permissionsInput,
});

export const setInstallationStatusInput = z.object({ installationId: idInput(), status: z.enum(['active', 'suspended']) });

export const removeInstallationInput = z.object({ installationId: idInput() });
export const createOperatorInput = z.object({
  id: z.uuid().optional(),
  name: requiredText(120),
  role: z.enum(OPERATOR_ROLES),
  publicKeyPem: publicKeyPemInput,
});

export const setOperatorActiveInput = z.object({ operatorId: idInput(), active: z.boolean() });

/** A new public key for an operator account whose private key was lost (the desk's local administrator). */
export const setOperatorKeyInput = z.object({ operatorId: idInput(), publicKeyPem: publicKeyPemInput });

// The inputs of the registry operator's operations, one zod schema each: the operations parse them
// (electron/core/registry/operations), the CLI builds its flags from them, and the operator rows of
// the endpoint table take them as request bodies (so /openapi.json and the typed client show them).
// Shared because the endpoint table is; nothing here touches Node or the database.
import { z } from 'zod';
import { alpha3Of, COUNTRIES } from './countries';
import { CONTRACT_ADDRESS, WALLET_ADDRESS } from './identifiers';
import { listEntries, reportRepeatedIds } from './repeated-ids';
import { isWebAddress, WEB_ADDRESS_MESSAGE, WEBSITE_PATTERN } from './web-address';
import { CREDIT_TYPES, OPERATOR_ROLES, ORGANIZATION_TYPES, PERMISSION_LEVELS, PROJECT_STATUSES } from './vocabulary';

// ---- field shapes ---------------------------------------------------------------------------------

/**
 * At most `max` characters counted as JSON Schema's maxLength counts them (/openapi.json): by code
 * point, so an emoji is one character, where zod's .max() would count its two UTF-16 units and
 * refuse text the document allows.
 */
const atMostCharacters = (max: number) => (value: string) => {
  let count = 0;
  for (const _character of value) if (++count > max) return false;
  return true;
};
export const text = (max = 500) =>
  z.string().trim().refine(atMostCharacters(max), `must be at most ${max} characters`).meta({ maxLength: max });
/** Text that is not empty once trimmed (the pattern says so in /openapi.json: some non-space character). */
export const requiredText = (max = 500) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine(atMostCharacters(max), `must be at most ${max} characters`)
    .meta({ pattern: '\\S', maxLength: max });
/**
 * The id of a record: taken exactly as sent, never trimmed (` x` is not `x`, as in paths); an id
 * that names nothing is the operation's 404.
 */
export const idInput = () => z.string().min(1, 'must not be empty').max(500);
export const dateInput = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((s) => Date.parse(s));
/** The most one ledger movement may carry, in tonnes (the ledger's own cap, ledger.ts). */
export const MAX_MOVEMENT_TONNES = 1_000_000_000;
export const tonnesInput = z
  .number({ error: 'must be a number of tonnes' })
  .positive('must be greater than 0')
  .max(MAX_MOVEMENT_TONNES, `must be at most ${MAX_MOVEMENT_TONNES} t per movement`)
  .meta({
    multipleOf: 0.000001,
    description: `Tonnes in whole grams (0.000001 t), at most ${MAX_MOVEMENT_TONNES} per movement; one account holds at most 9000000000 t over all its credits`,
  });
export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
  .refine((c) => alpha3Of(c) !== undefined, 'unknown country code')
  // the refine above, as JSON Schema can say it (/openapi.json): the codes countries.ts knows
  .meta({ enum: Object.keys(COUNTRIES).sort(), description: 'ISO 3166-1 alpha-2 code of a known country' });
/**
 * An RSA public key in PEM. The server parses it (and refuses one that is not RSA, or under 2048
 * bits); the document can say only its PEM shape.
 */
export const publicKeyPemInput = requiredText(10_000).meta({
  pattern: '^\\s*-----BEGIN [A-Z0-9 ]+-----[\\s\\S]+-----END [A-Z0-9 ]+-----\\s*$',
  description: 'An RSA public key of at least 2048 bits, PEM ("-----BEGIN PUBLIC KEY-----" ...)',
});

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
const somethingToChangeIn = (what: string, id: string) =>
  [
    (p: Record<string, unknown>) => Object.entries(p).some(([k, v]) => k !== id && v !== undefined),
    { message: `nothing to change: give at least one field of the ${what}` },
  ] as const;
export const updateOrganizationInput = updateOrganizationShape.refine(...somethingToChangeIn('organization', 'organizationId'));
/** The HTTP body of the edit (the organization is the path's). */
export const updateOrganizationBody = updateOrganizationShape
  .omit({ organizationId: true })
  .refine(...somethingToChangeIn('organization', 'organizationId'))
  .meta({ minProperties: 1 });

export const setOrganizationVerifiedInput = z.object({ organizationId: idInput(), verified: z.boolean() });

// projects
const documentInput = z.object({
  id: z.uuid().optional(),
  uri: requiredText(1000),
  type: requiredText(60),
  name: requiredText(300),
  isPublic: z.boolean().default(true),
});

/** Shapes shared by the creation and the edit of a project. */
const projectFields = {
  sector: z.object({ id: requiredText(60), title: requiredText(200) }),
  methodology: z.object({ id: requiredText(60), title: requiredText(300) }),
  type: z.object({ id: requiredText(60), title: requiredText(200), description: text(2000).default('') }),
  location: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }),
  otherBenefits: z.array(
    z.object({ id: z.number().int(), title: requiredText(200), checked: z.boolean(), description: text(2000).default('') }),
  ),
};

/**
 * A list of organization ids, each at most once (the database keeps one row per organization; a
 * repeat is refused naming it, by idsOnceInProject).
 */
const distinctIds = () => z.array(idInput()).meta({ uniqueItems: true });

/** The ids a project body gives in lists: each at most once in its list (repeated-ids.ts). */
function idsOnceInProject(
  p: {
    proponentIds?: string[];
    validatorIds?: string[];
    otherBenefits?: { id: number }[];
    documentation?: { id?: string | undefined }[];
    kmlFile?: { id?: string | undefined } | null;
  },
  ctx: z.RefinementCtx,
): void {
  reportRepeatedIds(listEntries('proponentIds', p.proponentIds), ctx);
  reportRepeatedIds(listEntries('validatorIds', p.validatorIds), ctx);
  reportRepeatedIds(listEntries('otherBenefits', p.otherBenefits, 'id'), ctx);
  // the KML file is a document too (one table): its id may not repeat one of the documentation's
  const kml = p.kmlFile ? [{ id: p.kmlFile.id, path: ['kmlFile', 'id'], label: 'kmlFile' }] : [];
  reportRepeatedIds([...listEntries('documentation', p.documentation, 'id'), ...kml], ctx);
}

/** The most yearly estimates a project lists (one per year of its crediting period). */
export const MAX_MITIGATION_YEARS = 100;
/**
 * Estimated annual mitigations, one per year: tonnes of CO2 written as decimal text, exact to the
 * gram (at most 6 decimals), or null for a year without an estimate.
 */
const mitigationsInput = z
  .array(
    z
      .string()
      // at most what one movement may carry (1000000000), said by the pattern itself so that
      // /openapi.json states the whole rule
      .regex(
        /^(\d{1,9}(\.\d{1,6})?|1000000000(\.0{1,6})?)$/,
        `must be tonnes written in digits, such as 1200 or 1200.5, at most ${MAX_MOVEMENT_TONNES} with at most 6 decimals (null for a year without an estimate)`,
      )
      .meta({ description: `Tonnes as decimal text, at most ${MAX_MOVEMENT_TONNES}, at most 6 decimals` })
      .nullable(),
  )
  .max(MAX_MITIGATION_YEARS, `must list at most ${MAX_MITIGATION_YEARS} years`);

export const createProjectInput = z
  .object({
    id: z.uuid().optional(),
    num: z
      .string()
      // at most 9 digits: PostgreSQL's number index reads it as a 32-bit integer
      .regex(/^\d{1,9}$/, 'must be a string of at most 9 digits')
      .optional(),
    fullName: requiredText(300),
    description: text(20_000).default(''),
    shortDescription: text(1000).default(''),
    status: z.enum(PROJECT_STATUSES).default('draft'),
    startDate: dateInput,
    creditingPeriodStartDate: dateInput,
    estimatedAnnualMitigations: mitigationsInput.default([]),
    city: text(100).optional(),
    thumbnail: text(1000).optional(),
    countryCode: countryCode,
    state: text(100).optional(),
    sector: projectFields.sector,
    methodology: projectFields.methodology,
    type: projectFields.type,
    location: projectFields.location.optional(),
    /** The owning proponent organization; listed first among the proponents. */
    organizationId: idInput(),
    proponentIds: distinctIds().default([]),
    validatorIds: distinctIds().default([]),
    documentation: z.array(documentInput).default([]),
    kmlFile: documentInput.optional(),
    otherBenefits: projectFields.otherBenefits.default([]),
    contractAddress: z.string().regex(CONTRACT_ADDRESS, 'must be a lowercase 0x contract address').optional(),
  })
  .superRefine(idsOnceInProject);

/**
 * An edit of a draft project: every field given replaces the stored one (lists as a whole: the
 * documentation, the benefits, the extra proponents, the validators); `null` clears an optional one
 * (city, state, thumbnail, location, kmlFile). The number, status and contract address are not
 * edited here (the status has its own endpoint); an unknown or one of those fields is refused.
 */
const updateProjectShape = z.strictObject({
  projectId: idInput(),
  fullName: requiredText(300).optional(),
  description: text(20_000).optional(),
  shortDescription: text(1000).optional(),
  startDate: dateInput.optional(),
  creditingPeriodStartDate: dateInput.optional(),
  estimatedAnnualMitigations: mitigationsInput.optional(),
  city: text(100).nullable().optional(),
  thumbnail: text(1000).nullable().optional(),
  countryCode: countryCode.optional(),
  state: text(100).nullable().optional(),
  sector: projectFields.sector.optional(),
  methodology: projectFields.methodology.optional(),
  type: projectFields.type.optional(),
  location: projectFields.location.nullable().optional(),
  organizationId: idInput().optional(),
  proponentIds: distinctIds().optional(),
  validatorIds: distinctIds().optional(),
  documentation: z.array(documentInput).optional(),
  kmlFile: documentInput.nullable().optional(),
  otherBenefits: projectFields.otherBenefits.optional(),
});
const somethingToChange = somethingToChangeIn('project', 'projectId');
export const updateProjectInput = updateProjectShape.refine(...somethingToChange).superRefine(idsOnceInProject);
/** The HTTP body of the edit (the project is the path's). */
export const updateProjectBody = updateProjectShape
  .omit({ projectId: true })
  .refine(...somethingToChange)
  .superRefine(idsOnceInProject)
  .meta({ minProperties: 1 });

/** A status change; the comment is kept in the project's status history. */
export const changeProjectStatusInput = z.object({
  projectId: idInput(),
  status: z.enum(PROJECT_STATUSES),
  comment: text(2000).default(''),
});

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

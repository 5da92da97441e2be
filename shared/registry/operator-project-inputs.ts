// The inputs of the registry operator's project operations (operator-inputs.ts re-exports them):
// creation, edit, status change.
import { z } from 'zod';
import { CONTRACT_ADDRESS } from './identifiers';
import { listEntries, reportRepeatedIds } from './repeated-ids';
import { PROJECT_STATUSES } from './vocabulary';
import { text, requiredText, idInput, dateInput, MAX_MOVEMENT_TONNES, countryCode, somethingToChangeIn } from './operator-fields';

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

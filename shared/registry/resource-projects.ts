// The project resources of the registry service interface: a project as the public sees it, and as
// its organization sees it with its status history.
import { z } from 'zod';
import { isoDateTime, type CommonSchemas, type ObjectFactory } from './resource-common';

/** The project and its events; `common` gives the references it embeds. */
export function projectSchemas(object: ObjectFactory, { organizationSummary, document }: CommonSchemas) {
  const idTitle = object({ id: z.string(), title: z.string() });

  const projectEvent = object({
    id: z.string(),
    type: z.string(),
    createdAt: isoDateTime,
    projectStatus: z.string(),
    previousProjectStatus: z.string(),
  });

  const project = object({
    id: z.string(),
    num: z.string().regex(/^\d+$/),
    fullName: z.string(),
    description: z.string(),
    shortDescription: z.string(),
    publicUrl: z.string(),
    registry: z.string(),
    status: z.string(),
    startDate: isoDateTime,
    creditingPeriodStartDate: isoDateTime,
    estimatedAnnualMitigations: z.array(z.string().nullable()),
    city: z.string().optional(),
    thumbnail: z.string().optional(),
    countryCode: z.string().length(2).optional(),
    state: z.string().optional(),
    sector: idTitle,
    otherBenefits: z.array(object({ title: z.string(), checked: z.boolean(), id: z.number(), description: z.string() })),
    proponents: z.array(organizationSummary),
    validators: z.array(organizationSummary),
    methodology: idTitle,
    type: object({ id: z.string(), title: z.string(), description: z.string() }),
    location: object({ lat: z.number(), lng: z.number() }).optional(),
    kmlFile: document.optional(),
    documentation: z.array(document),
  });

  const internalProject = project.extend({ events: z.array(projectEvent) });

  return { projectEvent, project, internalProject };
}

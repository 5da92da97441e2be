// A project as the operator interface shows it, with its status history and the operator's comment
// on each change.
import { z } from 'zod';
import { isoDateTime, type ObjectFactory } from './resource-common';
import { PROJECT_STATUSES } from './vocabulary';

/** The operator's project and its history. */
export function projectResources(object: ObjectFactory) {
  const projectEvent = object({
    id: z.string(),
    type: z.string(),
    createdAt: isoDateTime,
    projectStatus: z.string(),
    previousProjectStatus: z.string(),
    /** The operator's comment on the change ('' for changes recorded without one). */
    comment: z.string(),
  });
  const project = object({
    id: z.string(),
    num: z.string(),
    fullName: z.string(),
    status: z.enum(PROJECT_STATUSES),
    organizationId: z.string(),
    countryCode: z.string().nullable(),
    contractAddress: z.string(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    history: z.array(projectEvent),
  });
  return { project };
}

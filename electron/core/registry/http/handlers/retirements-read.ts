// 4.2 and 4.3: reading retirements (v1 and unversioned paths).
import { countRetirements, entityRetirements, listRetirements, retirementById } from '@registry/queries/retirements';
import { pageOf } from '../pagination';
import type { Handlers } from '../types';

export const retirementReadHandlers: Pick<
  Handlers,
  'listRetirementsV1' | 'getRetirementV1' | 'listEntityRetirementsV1' | 'listRetirements' | 'getRetirement'
> = {
  listRetirementsV1: ({ registry, query }) => {
    const total = countRetirements(registry);
    const { pagination, offset } = pageOf(total, query.page, query.limit);
    // Past the end: an empty page, without handing SQLite an offset beyond any row.
    const retirements = offset < total ? listRetirements(registry, { limit: query.limit, offset }) : [];
    return { retirements, pagination };
  },

  getRetirementV1: ({ registry, params }) => ({ retirement: retirementById(registry, params.id) }),

  listEntityRetirementsV1: ({ registry, params }) => ({ retirements: entityRetirements(registry, params.id) }),

  listRetirements: ({ registry, query }) => {
    const total = countRetirements(registry);
    return { retirements: query.skip < total ? listRetirements(registry, { limit: query.first, offset: query.skip }) : [] };
  },

  getRetirement: ({ registry, query }) => retirementById(registry, query.id),
};

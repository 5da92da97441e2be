// 4.7 Organizations.
import { organizationFor } from '@registry/queries/organizations';
import type { Handlers } from '../types';

export const organizationHandlers: Pick<Handlers, 'getOrganizationV1'> = {
  getOrganizationV1: ({ registry, params, caller }) => {
    const viewer =
      caller.kind === 'token'
        ? { organizationId: caller.organizationId, examinerRead: caller.examinerRead }
        : { organizationId: null, examinerRead: false };
    return { organization: organizationFor(registry, params.id, viewer) };
  },
};

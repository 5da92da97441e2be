import type { Handlers } from '../types';
import { notImplemented } from './not-implemented';

export const organizationHandlers: Pick<Handlers, 'getOrganizationV1'> = {
  getOrganizationV1: notImplemented('getOrganizationV1'),
};

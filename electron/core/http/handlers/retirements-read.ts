import type { Handlers } from '../types';
import { notImplemented } from './not-implemented';

export const retirementReadHandlers: Pick<
  Handlers,
  'listRetirementsV1' | 'getRetirementV1' | 'listEntityRetirementsV1' | 'listRetirements' | 'getRetirement'
> = {
  listRetirementsV1: notImplemented('listRetirementsV1'),
  getRetirementV1: notImplemented('getRetirementV1'),
  listEntityRetirementsV1: notImplemented('listEntityRetirementsV1'),
  listRetirements: notImplemented('listRetirements'),
  getRetirement: notImplemented('getRetirement'),
};

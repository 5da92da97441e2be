import type { Handlers } from '../types';
import { notImplemented } from './not-implemented';

export const creditHandlers: Pick<Handlers, 'getProjectCredits' | 'getBufferInventory' | 'getAdjustmentInventory' | 'getOrganizationInventory'> = {
  getProjectCredits: notImplemented('getProjectCredits'),
  getBufferInventory: notImplemented('getBufferInventory'),
  getAdjustmentInventory: notImplemented('getAdjustmentInventory'),
  getOrganizationInventory: notImplemented('getOrganizationInventory'),
};

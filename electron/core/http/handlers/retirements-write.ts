import type { Handlers } from '../types';
import { notImplemented } from './not-implemented';

export const retirementWriteHandlers: Pick<Handlers, 'getRetirementPdf' | 'finalizeRetirement'> = {
  getRetirementPdf: notImplemented('getRetirementPdf'),
  finalizeRetirement: notImplemented('finalizeRetirement'),
};

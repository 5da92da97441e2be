// 4.3 Retirements that write or render: finalize (wallet claim) and the certificate PDF.
import type { Handlers } from '../types';
import { finalizeOnchainRetirement, type FinalizeInput } from '../../registry/retirements/finalize';
import { certificateFilename, certificateInputFor } from '../../registry/retirements/certificate';

export const retirementWriteHandlers: Pick<Handlers, 'getRetirementPdf' | 'finalizeRetirement'> = {
  getRetirementPdf: ({ params, registry }) => {
    const input = certificateInputFor(registry, params.retirementId);
    // Rendering lands with electron/core/certificates/index.ts (renderCertificatePdf).
    void certificateFilename(input.retirementId);
    throw new Error('certificate rendering is not available yet');
  },

  finalizeRetirement: ({ body, registry }) => finalizeOnchainRetirement(registry, body as unknown as FinalizeInput),
};

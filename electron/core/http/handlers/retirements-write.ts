// 4.3 Retirements that write or render: finalize (wallet claim) and the certificate PDF.
import type { Handlers } from '../types';
import { renderCertificatePdf } from '../../certificates';
import { finalizeOnchainRetirement } from '../../registry/retirements/finalize';
import { certificateFilename, certificateInputFor } from '../../registry/retirements/certificate';

export const retirementWriteHandlers: Pick<Handlers, 'getRetirementPdf' | 'finalizeRetirement'> = {
  // unknown → 404; unclaimed (or made by an unverified organization) → 409; claimed → the certificate
  getRetirementPdf: async ({ params, registry }) => {
    const input = certificateInputFor(registry, params.retirementId);
    return {
      kind: 'file',
      bytes: await renderCertificatePdf(input),
      contentType: 'application/pdf',
      filename: certificateFilename(input.retirementId),
    };
  },

  finalizeRetirement: ({ body, registry }) => finalizeOnchainRetirement(registry, body),
};

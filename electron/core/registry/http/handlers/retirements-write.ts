// 4.3 Retirements that write or render: finalize (wallet claim) and the certificate PDF.
import type { Handlers } from '../types';
import { renderCertificatePdf } from '@registry/certificates';
import type { CertificateRenderer } from '@registry/certificates/pool';
import { finalizeOnchainRetirement } from '@registry/retirements/finalize';
import { certificateFilename, certificateInputFor } from '@registry/retirements/certificate';

/** `render` makes the PDF: in this thread by default, or a worker pool's (certificates/pool.ts). */
export const retirementWriteHandlers = (
  render: CertificateRenderer = (input) => renderCertificatePdf(input),
): Pick<Handlers, 'getRetirementPdf' | 'finalizeRetirement'> => ({
  // unknown → 404; unclaimed (or made by an unverified organization) → 409; claimed → the certificate
  getRetirementPdf: async ({ params, registry }) => {
    const input = certificateInputFor(registry, params.retirementId);
    return {
      kind: 'file',
      bytes: await render(input),
      contentType: 'application/pdf',
      filename: certificateFilename(input.retirementId),
    };
  },

  finalizeRetirement: ({ body, registry }) => finalizeOnchainRetirement(registry, body),
});

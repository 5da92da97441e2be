// The TypeScript type of each endpoint's answer as the client returns it: the shared endpoint table
// carries each response schema's type through define(), so `EndpointResponse<K>` is the checked
// answer itself. The one exception is the certificate PDF, which the client hands back as a
// DownloadedFile (bytes plus the file name the registry suggested) rather than the raw bytes.
import type { EndpointId, EndpointResponse } from '@shared/registry/endpoints';

/** A downloaded file (the retirement certificate). */
export interface DownloadedFile {
  bytes: Uint8Array;
  /** From Content-Disposition; a safe fallback when the registry sent none. */
  filename: string;
  contentType: string;
}

type FileEndpoints = 'getRetirementPdf';

export type ClientResponse<K extends EndpointId> = K extends FileEndpoints ? DownloadedFile : EndpointResponse<K>;

/** GET /carbonCredits/projects/{id}: a project's credit summary and vintages. */
export type ProjectCreditsAnswer = EndpointResponse<'getProjectCredits'>;

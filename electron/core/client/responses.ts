// The TypeScript type of each endpoint's answer as the client returns it. The shared table types
// `response` as a plain z.ZodType, so `EndpointResponse<K>` is `unknown`; this map restores the
// types from the resource definitions. At run time every answer is still checked against
// `endpoints[id].response(tolerant)`, so a wrong entry here fails the client tests, not users.
import type { EndpointId } from '../../../shared/registry/endpoints';
import type {
  AccessToken,
  CreditEvent,
  CreditSummary,
  Installation,
  InternalProject,
  InventoryCredit,
  InventorySummary,
  Organization,
  OrganizationSummary,
  Pagination,
  Project,
  ProjectReference,
  Reservation,
  Retirement,
  WarehouseInventoryCredit,
} from '../../../shared/registry/resources';

export interface ProjectCreditsAnswer {
  summary: CreditSummary;
  vintages: { events: CreditEvent[]; vintage: string; summary: CreditSummary }[];
  project: ProjectReference;
}

export interface InventoryAnswer {
  summary: InventorySummary;
  organization: OrganizationSummary;
  credits: InventoryCredit[];
}

/** A downloaded file (the retirement certificate). */
export interface DownloadedFile {
  bytes: Uint8Array;
  /** From Content-Disposition; a safe fallback when the registry sent none. */
  filename: string;
  contentType: string;
}

type ProjectPage = { pagination: Pagination; projects: Project[] };

export interface RegistryResponses {
  listProjects: ProjectPage;
  listInternalProjects: ProjectPage;
  getInternalProject: { project: InternalProject };
  findProject: Project;
  getProject: ProjectPage;
  listRetirementsV1: { retirements: Retirement[]; pagination: Pagination };
  getRetirementV1: { retirement: Retirement };
  listEntityRetirementsV1: { retirements: Retirement[] };
  listRetirements: { retirements: Retirement[] };
  getRetirement: Retirement;
  getRetirementPdf: DownloadedFile;
  finalizeRetirement: Retirement;
  getProjectCredits: ProjectCreditsAnswer;
  getBufferInventory: InventoryAnswer;
  getAdjustmentInventory: InventoryAnswer;
  getOrganizationInventory: InventoryAnswer;
  getWarehouseInventory: { credits: WarehouseInventoryCredit[]; organizationId: string };
  listReservations: { pagination: Pagination; reservations: Reservation[] };
  createReservation: { id: string; creditId: string; serialization: string; amount: number };
  getReservation: Reservation;
  cancelReservation: Reservation;
  finishReservation: { success: boolean; transactionId: string; state: string };
  createAppAccessToken: AccessToken;
  createInstallationAccessToken: AccessToken;
  revokeAccessToken: { success: true };
  listInstallations: { pagination: Pagination; installations: Installation[] };
  getInstallation: Installation;
  getOrganizationV1: { organization: Organization };
}

// Compile-time guard: the map covers exactly the endpoint table.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const coversEveryEndpoint: Exactly<keyof RegistryResponses, EndpointId> = true;
void coversEveryEndpoint;

export type ClientResponse<K extends EndpointId> = RegistryResponses[K];

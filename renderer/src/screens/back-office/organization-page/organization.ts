// The organization an organization's page shows, as the operator's read of it answers.
import type { BackOfficeData } from '@shared/desk/back-office';

export type PageOrganization = BackOfficeData<'operatorGetOrganization'>['organization'];

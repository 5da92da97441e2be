// Which organizations the app is installed in, from GET /app/installations (paged until a short
// page, as compatibility.md says clients do).
import type { InstallationInfo } from './types';
import type { RegistryClient } from './client/registry-client';

const PAGE = 100;

export async function discoverInstallations(client: RegistryClient): Promise<InstallationInfo[]> {
  const found: InstallationInfo[] = [];
  for (let page = 0; page < 1000; page++) {
    const answer = await client.call('listInstallations', { query: { limit: PAGE, page } });
    for (const installation of answer.installations) {
      found.push({
        id: installation.id,
        organizationId: installation.organization.id,
        organizationName: installation.organization.fullName,
        permissions: installation.permissions,
      });
    }
    if (answer.installations.length < PAGE || answer.pagination.nextPage === null) break;
  }
  return found;
}

/** Whether an app token's permissions include the examiner grant (internal projects). */
export const hasExaminerRead = (permissions: Record<string, string>): boolean =>
  Object.entries(permissions).some(([key, level]) => key.startsWith('examiner') && /READ|VIEW|WRITE/i.test(level));

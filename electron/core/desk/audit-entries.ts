// Every audit entry a filter selects, read from the registry's audit search page by page (its
// cursor, newest first): what the Audit log's CSV export writes, the same list the screen pages.
import type { AuditFilter } from '../../../shared/desk/audit-filter';
import { MAX_PAGE_SIZE } from '../../../shared/registry/vocabulary';
import type { RegistryClient } from '../client/registry-client';
import type { AuditEntryRow } from './csv-export';

export async function auditEntries(client: RegistryClient, filter: AuditFilter): Promise<AuditEntryRow[]> {
  const entries: AuditEntryRow[] = [];
  let cursor: string | null = null;
  do {
    const page: { entries: AuditEntryRow[]; nextCursor: string | null } = await client.call('operatorSearchAudit', {
      query: { ...filter, limit: MAX_PAGE_SIZE, ...(cursor !== null ? { cursor } : {}) },
    });
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return entries;
}

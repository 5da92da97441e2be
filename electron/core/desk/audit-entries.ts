// Every audit entry a filter selects, read through the back office's read of the registry's audit
// search page by page (its cursor, newest first; offline, the pages as last read): what the Audit
// log's CSV export writes, the same pages of the same size the screen reads.
import type { AuditFilter } from '@shared/desk/audit-filter';
import { MAX_PAGE_SIZE } from '@shared/registry/vocabulary';
import type { AuditEntryRow } from './csv-export';

export type AuditPageRead = (query: Record<string, string | number>) => Promise<{ entries: AuditEntryRow[]; nextCursor: string | null }>;

/** The page size of the Audit log screen and of its export (so offline both find the same pages). */
export const AUDIT_PAGE_SIZE = MAX_PAGE_SIZE;

export async function auditEntries(read: AuditPageRead, filter: AuditFilter): Promise<AuditEntryRow[]> {
  const given = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const entries: AuditEntryRow[] = [];
  let cursor: string | null = null;
  do {
    const page = await read({ ...given, limit: AUDIT_PAGE_SIZE, ...(cursor !== null ? { cursor } : {}) });
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return entries;
}

// The back office's sync, after the seed sync, for a connection with an operator account: every
// operator list (organizations and each organization's page, accounts, projects, apps, operators
// for administrators) saved under the very requests the screens make (pages of BACK_OFFICE_PAGE_SIZE),
// the audit log incrementally (newest first until an entry already kept), and the ledger history of
// each credit whose balances changed since it was last read. Offline, all of it stays browsable.
import { createHash } from 'node:crypto';
import { BACK_OFFICE_PAGE_SIZE, type OperatorReadName } from '@shared/desk/back-office';
import type { EndpointResponse } from '@shared/registry/endpoints';
import { roleAtLeast } from '@shared/registry/vocabulary';
import type { Clock } from '@platform/clock';
import type { RegistryClient } from '../client/registry-client';
import type { AuditEntry, BackOfficeStore } from './store';

type Paged = { pagination: { nextPage: number | null } };

export async function syncBackOffice(client: RegistryClient, store: BackOfficeStore, clock: Clock): Promise<void> {
  const save = <T>(
    endpoint: OperatorReadName,
    request: { params?: Record<string, string>; query?: Record<string, string | number> },
    data: T,
  ) => {
    store.put({ endpoint, ...request }, data, clock.now());
    return data;
  };

  const self = save('operatorGetSelf', {}, await client.call('operatorGetSelf'));

  async function allPages<E extends 'operatorListOrganizations' | 'operatorListAccounts' | 'operatorListProjects' | 'operatorListApps'>(
    endpoint: E,
  ): Promise<EndpointResponse<E>[]> {
    const pages: EndpointResponse<E>[] = [];
    for (let page: number | null = 0; page !== null;) {
      const query: Record<string, number> = { limit: BACK_OFFICE_PAGE_SIZE, page };
      const answer = (await client.call(endpoint, { query })) as EndpointResponse<E>;
      save(endpoint, { query }, answer);
      pages.push(answer);
      page = (answer as Paged).pagination.nextPage;
    }
    return pages;
  }

  for (const page of await allPages('operatorListOrganizations')) {
    for (const organization of page.organizations) {
      const params = { organizationId: organization.id };
      save('operatorGetOrganization', { params }, await client.call('operatorGetOrganization', { params }));
    }
  }
  const accounts = (await allPages('operatorListAccounts')).flatMap((p) => p.accounts);
  await allPages('operatorListProjects');
  await allPages('operatorListApps');
  if (roleAtLeast(self.operator.role, 'administrator')) save('operatorListOperators', {}, await client.call('operatorListOperators'));

  // The audit log, newest first, until an entry already kept (one transaction: a cut run adds nothing).
  const newer: AuditEntry[] = [];
  let cursor: string | null = null;
  collect: do {
    const query: Record<string, string | number> = { limit: BACK_OFFICE_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
    const answer = await client.call('operatorSearchAudit', { query });
    if (!cursor) save('operatorSearchAudit', { query }, answer);
    for (const entry of answer.entries) {
      if (store.hasAuditEntry(entry.id)) break collect;
      newer.push(entry);
    }
    cursor = answer.nextCursor;
  } while (cursor);
  store.addNewestAudit(newer);

  // Each credit's history, re-read when the balances holding it changed.
  const holdings = new Map<string, string[]>();
  for (const account of accounts)
    for (const balance of account.balances) {
      const list = holdings.get(balance.creditId) ?? [];
      list.push(`${account.id}=${balance.amountGrams}`);
      holdings.set(balance.creditId, list);
    }
  for (const [creditId, list] of holdings) {
    const hash = createHash('sha256').update(list.sort().join('\n')).digest('hex');
    if (store.creditBalancesHash(creditId) === hash) continue;
    store.putCreditHistory(await client.call('operatorCreditHistory', { query: { creditId } }), hash, clock.now());
  }
}

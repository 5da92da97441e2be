// The transfer screen's state: the form (useLedgerForm), the organizations and registry accounts it
// chooses among, and what follows from the values typed: the source account and its balances, the
// credit chosen, the problems, and the words the review's heading uses.
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { parseTonnes } from '@renderer/lib/decimal';
import { useLedgerForm } from '../ledger/useLedgerForm';
import { clearsCredit, destinationOf, EMPTY, needsOrganization, OPERATIONS, sourceOf, transferProblems } from './transferForm';

export type Transfer = ReturnType<typeof useTransfer>;

export function useTransfer() {
  const ledger = useLedgerForm(EMPTY, clearsCredit);
  const { form } = ledger;
  const organizations = useBackOfficeRead('operatorListOrganizations', { query: { limit: 100 } });
  const accounts = useBackOfficeRead('operatorListAccounts', { query: { limit: 100 } });
  const orgs = (organizations.data?.data.organizations ?? []).filter((o) => !o.isRegistry);
  const nameOf = (id: string) => orgs.find((o) => o.id === id)?.fullName ?? null;
  const operation = OPERATIONS.find((o) => o.id === form.operation)!;
  const source = sourceOf(form);
  const sourceAccount = needsOrganization(source.kind)
    ? orgs.find((o) => o.id === source.organizationId)?.accounts.find((a) => a.kind === source.kind)
    : accounts.data?.data.accounts.find((a) => a.kind === source.kind);
  const balances = sourceAccount?.balances ?? [];
  const credit = balances.find((b) => b.creditId === form.creditId);
  const amount = parseTonnes(form.amount);
  const destination =
    form.operation === 'deposit' || form.operation === 'withdrawal'
      ? (nameOf(form.fromOrganizationId) ?? form.fromOrganizationId)
      : destinationOf(form, nameOf(form.toOrganizationId));
  return {
    ...ledger,
    operation,
    source,
    sourceAccount,
    balances,
    amount,
    problems: transferProblems(form, credit),
    /** The credits moved, in the review's heading: "12.5 t of RDR-…". */
    what: `${amount.ok ? amount.shown : ''} of ${credit?.serialization ?? form.creditId}`,
    destination,
    orgs,
    // Moved from: only organizations holding credits in that account (not every buyer and verifier).
    holders: orgs.filter(
      (o) => o.id === form.fromOrganizationId || o.accounts.some((a) => a.kind === source.kind && a.balances.length > 0),
    ),
    nameOf,
    loadError: organizations.error ?? accounts.error,
    reload: organizations.reload,
  };
}

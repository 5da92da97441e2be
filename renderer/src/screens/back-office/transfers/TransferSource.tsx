// Where a transfer's credits come from: the account (for a move between accounts or a
// cancellation), its organization when it is one's own, and the credit among that account's balances.
import { Field } from '@renderer/components/Field';
import { OrganizationSelect } from '@renderer/components/backOffice/OrganizationSelect';
import { accountText, tonnesOf } from '../ledger/accounts';
import { KIND_NAMES, lowerFirst, needsOrganization, sentence, SOURCE_KINDS, type Kind } from './transferForm';
import type { Transfer } from './useTransfer';

export function TransferSource({ transfer }: { transfer: Transfer }) {
  const { form, set, tried, problems, source, sourceAccount, balances, holders, nameOf } = transfer;
  const fromAnyAccount = form.operation === 'transfer' || form.operation === 'cancellation';
  const needsTheOrganization = needsOrganization(source.kind);
  return (
    <>
      {fromAnyAccount && (
        <Field label="From">
          <select value={form.fromKind} onChange={(e) => set('fromKind', e.target.value as Kind)}>
            {SOURCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_NAMES[k]}
              </option>
            ))}
          </select>
        </Field>
      )}
      {needsTheOrganization && (
        <Field label={fromAnyAccount ? 'From organization' : 'Organization'} error={tried ? problems.fromOrganizationId : null}>
          <OrganizationSelect
            value={form.fromOrganizationId}
            onChange={(id) => set('fromOrganizationId', id)}
            organizations={holders}
            placeholder="Choose an organization…"
          />
        </Field>
      )}
      <Field
        label="Credit"
        error={tried ? problems.creditId : null}
        hint={
          sourceAccount
            ? sentence(`Held in the ${lowerFirst(accountText({ ...source, organizationName: nameOf(source.organizationId) }))}`)
            : undefined
        }
      >
        <select value={form.creditId} onChange={(e) => set('creditId', e.target.value)}>
          <option value="">
            {needsTheOrganization && !form.fromOrganizationId
              ? 'Choose the organization first'
              : balances.length === 0
                ? 'Nothing is held there'
                : 'Choose a serialization…'}
          </option>
          {balances.map((b) => (
            <option key={b.creditId} value={b.creditId}>
              {b.serialization} — {tonnesOf(b.amountGrams)}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

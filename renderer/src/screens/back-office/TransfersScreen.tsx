// Back office: Transfers and cancellations. Moves credits between accounts (inventories, the
// registry's buffer, adjustment and registry accounts, wallets), into and out of an organization's
// warehouse, or out of circulation by cancellation (with its reason). The credit is chosen among the
// source account's balances, the amount typed in the user's locale; the review shows the registry's
// dry run, and a cancellation asks the user to type the amount before it is sent.
import { useState } from 'react';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { ErrorMessage } from '@renderer/components/feedback';
import { Field } from '@renderer/components/Field';
import { parseTonnes } from '@renderer/lib/decimal';
import { describeError } from '@renderer/lib/desk';
import { BackOfficePage } from './BackOfficePage';
import { accountText, tonnesOf } from './ledger/accounts';
import { LedgerReview } from './ledger/LedgerReview';
import { HEADINGS } from './ledger/transferHeadings';
import {
  destinationOf,
  EMPTY,
  KIND_NAMES,
  lowerFirst,
  OPERATIONS,
  sentence,
  SOURCE_KINDS,
  sourceOf,
  TARGET_KINDS,
  transferBody,
  type Kind,
  type TransferForm,
} from './transfers/transferForm';
import { UnderstoodAmount } from '@renderer/components/UnderstoodAmount';
import { reportFormProblems } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';

export function TransfersScreen() {
  const [form, setForm] = useState<TransferForm>(EMPTY);
  const [reviewing, setReviewing] = useState(false);
  const [tried, setTried] = useState(false);
  const organizations = useBackOfficeRead('operatorListOrganizations', { query: { limit: 100 } });
  const accounts = useBackOfficeRead('operatorListAccounts', { query: { limit: 100 } });
  const orgs = (organizations.data?.data.organizations ?? []).filter((o) => !o.isRegistry);
  const set = <K extends keyof TransferForm>(key: K, value: TransferForm[K]) =>
    setForm((f) => ({
      ...f,
      [key]: value,
      ...(key === 'operation' || key === 'fromKind' || key === 'fromOrganizationId' ? { creditId: '' } : {}),
    }));
  const operation = OPERATIONS.find((o) => o.id === form.operation)!;
  const source = sourceOf(form);
  const sourceAccount =
    source.kind === 'inventory' || source.kind === 'warehouse'
      ? orgs.find((o) => o.id === source.organizationId)?.accounts.find((a) => a.kind === source.kind)
      : accounts.data?.data.accounts.find((a) => a.kind === source.kind);
  const balances = sourceAccount?.balances ?? [];
  const credit = balances.find((b) => b.creditId === form.creditId);
  const amount = parseTonnes(form.amount);
  const needsOrganization = source.kind === 'inventory' || source.kind === 'warehouse';

  const problems: Partial<Record<keyof TransferForm, string>> = {};
  if (needsOrganization && !form.fromOrganizationId) problems.fromOrganizationId = 'Choose the organization.';
  if (!form.creditId) problems.creditId = 'Choose the credit.';
  if (!amount.ok) problems.amount = amount.message;
  else if (credit && amount.grams > BigInt(credit.amountGrams)) problems.amount = `Only ${tonnesOf(credit.amountGrams)} are held there.`;
  if (form.operation === 'transfer') {
    if ((form.toKind === 'inventory' || form.toKind === 'warehouse') && !form.toOrganizationId)
      problems.toOrganizationId = 'Choose the organization.';
    if (form.toKind === 'wallet' && !/^0x[0-9a-fA-F]{40}$/.test(form.toWallet.trim()))
      problems.toWallet = 'A 0x wallet address of 40 hex digits.';
  }
  if (form.operation === 'cancellation' && form.reason.trim() === '') problems.reason = 'Say why the credits are cancelled.';

  const what = `${amount.ok ? amount.shown : ''} of ${credit?.serialization ?? form.creditId}`;
  const nameOf = (id: string) => orgs.find((o) => o.id === id)?.fullName ?? null;
  const destination =
    form.operation === 'deposit' || form.operation === 'withdrawal'
      ? (nameOf(form.fromOrganizationId) ?? form.fromOrganizationId)
      : destinationOf(form, nameOf(form.toOrganizationId));
  const loadError = organizations.error ?? accounts.error;
  // Moved from: only organizations holding credits in that account (not every buyer and verifier).
  const holders = orgs.filter(
    (o) => o.id === form.fromOrganizationId || o.accounts.some((a) => a.kind === source.kind && a.balances.length > 0),
  );
  const organizationSelect = (value: string, onChange: (id: string) => void, among = orgs) => (
    <select value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Choose an organization…</option>
      {among.map((o) => (
        <option key={o.id} value={o.id}>
          {o.fullName}
        </option>
      ))}
    </select>
  );

  return (
    <BackOfficePage title="Transfers and cancellations">
      {loadError !== null && loadError !== undefined && <ErrorMessage error={describeError(loadError)} onRetry={organizations.reload} />}
      {reviewing ? (
        <LedgerReview
          write={operation.write}
          body={transferBody(form)}
          title={HEADINGS[form.operation].review(what, destination)}
          doneTitle={HEADINGS[form.operation].done(what, destination)}
          confirmLabel={
            form.operation === 'cancellation' ? `Cancel ${amount.ok ? amount.shown : ''} for good` : `Move ${amount.ok ? amount.shown : ''}`
          }
          irreversible={form.operation === 'cancellation'}
          onBack={(made) => {
            setReviewing(false);
            // A new movement starts without the last amount: sent again by mistake it would move twice.
            if (made) {
              set('amount', '');
              // A new form: its problems are said once the user tries to review it, not before.
              setTried(false);
            }
          }}
        />
      ) : (
        <form
          className="form form-columns back-office-form"
          aria-label="Transfer or cancellation"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (Object.keys(problems).length === 0) setReviewing(true);
            // Refused: focus the first field to fix and say why (else nothing is heard or seen to happen).
            else reportFormProblems(e.currentTarget, Object.values(problems), say);
          }}
        >
          <fieldset className="choice-group span-all">
            <legend>What to do</legend>
            {OPERATIONS.map((o) => (
              <label key={o.id} className="choice">
                <input
                  type="radio"
                  name="ledger-operation"
                  value={o.id}
                  checked={form.operation === o.id}
                  onChange={() => set('operation', o.id)}
                />
                <span>
                  <strong>{o.label}</strong>
                  <span className="field-hint"> {o.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {(form.operation === 'transfer' || form.operation === 'cancellation') && (
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
          {needsOrganization && (
            <Field
              label={form.operation === 'transfer' || form.operation === 'cancellation' ? 'From organization' : 'Organization'}
              error={tried ? problems.fromOrganizationId : null}
            >
              {organizationSelect(form.fromOrganizationId, (id) => set('fromOrganizationId', id), holders)}
            </Field>
          )}
          <Field
            label="Credit"
            error={tried ? problems.creditId : null}
            hint={
              sourceAccount
                ? sentence(
                    `Held in the ${lowerFirst(accountText({ ...source, organizationName: orgs.find((o) => o.id === source.organizationId)?.fullName ?? null }))}`,
                  )
                : undefined
            }
          >
            <select value={form.creditId} onChange={(e) => set('creditId', e.target.value)}>
              <option value="">
                {needsOrganization && !form.fromOrganizationId
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
          <Field label="Amount (tonnes)" error={tried || form.amount ? (problems.amount ?? null) : null}>
            <input inputMode="decimal" value={form.amount} onChange={(e) => set('amount', e.target.value)} />
          </Field>
          <UnderstoodAmount shown={amount.ok ? amount.shown : null} className="span-all" />
          {form.operation === 'transfer' && (
            <>
              <Field label="To">
                <select value={form.toKind} onChange={(e) => set('toKind', e.target.value as Kind)}>
                  {TARGET_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {KIND_NAMES[k]}
                    </option>
                  ))}
                </select>
              </Field>
              {form.toKind === 'inventory' && (
                <Field label="To organization" error={tried ? problems.toOrganizationId : null}>
                  {organizationSelect(form.toOrganizationId, (id) => set('toOrganizationId', id))}
                </Field>
              )}
              {form.toKind === 'wallet' && (
                <Field label="Wallet address" error={tried ? problems.toWallet : null}>
                  <input className="mono" value={form.toWallet} onChange={(e) => set('toWallet', e.target.value)} placeholder="0x…" />
                </Field>
              )}
            </>
          )}
          {form.operation === 'cancellation' && (
            <Field
              label="Reason"
              error={tried ? problems.reason : null}
              hint="Kept with the ledger movement and shown in the credit's history."
            >
              <textarea rows={2} maxLength={500} value={form.reason} onChange={(e) => set('reason', e.target.value)} />
            </Field>
          )}
          <div className="actions span-all">
            <GatedButton can={operation.write} type="submit" className="button button-primary">
              Review
            </GatedButton>
          </div>
        </form>
      )}
    </BackOfficePage>
  );
}

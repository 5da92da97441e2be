// Back office: Transfers and cancellations. Moves credits between accounts (inventories, the
// registry's buffer, adjustment and registry accounts, wallets), into and out of an organization's
// warehouse, or out of circulation by cancellation (with its reason). The credit is chosen among the
// source account's balances, the amount typed in the user's locale; the review shows the registry's
// dry run, and a cancellation asks the user to type the amount before it is sent. Its state is
// useTransfer (transfers/), the form shared with issuance useLedgerForm (ledger/).
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { ChoiceGroup } from '@renderer/components/ChoiceGroup';
import { ErrorMessage } from '@renderer/components/feedback';
import { Field } from '@renderer/components/Field';
import { UnderstoodAmount } from '@renderer/components/UnderstoodAmount';
import { describeError } from '@renderer/lib/desk';
import { BackOfficePage } from './BackOfficePage';
import { LedgerReview } from './ledger/LedgerReview';
import { HEADINGS } from './ledger/transferHeadings';
import { OPERATIONS, transferBody } from './transfers/transferForm';
import { TransferSource } from './transfers/TransferSource';
import { TransferTarget } from './transfers/TransferTarget';
import { useTransfer } from './transfers/useTransfer';

export function TransfersScreen() {
  const transfer = useTransfer();
  const { form, set, tried, problems, operation, amount, what, destination, loadError } = transfer;
  return (
    <BackOfficePage title="Transfers and cancellations">
      {loadError !== null && loadError !== undefined && <ErrorMessage error={describeError(loadError)} onRetry={transfer.reload} />}
      {transfer.reviewing ? (
        <LedgerReview
          write={operation.write}
          body={transferBody(form)}
          title={HEADINGS[form.operation].review(what, destination)}
          doneTitle={HEADINGS[form.operation].done(what, destination)}
          confirmLabel={
            form.operation === 'cancellation' ? `Cancel ${amount.ok ? amount.shown : ''} for good` : `Move ${amount.ok ? amount.shown : ''}`
          }
          irreversible={form.operation === 'cancellation'}
          onBack={transfer.back}
          onRefused={transfer.refused}
        />
      ) : (
        <form className="form form-columns back-office-form" aria-label="Transfer or cancellation" onSubmit={transfer.review(problems)}>
          <ChoiceGroup
            legend="What to do"
            name="ledger-operation"
            choices={OPERATIONS}
            value={form.operation}
            onChange={(id) => set('operation', id)}
          />
          <TransferSource transfer={transfer} />
          <Field label="Amount (tonnes)" error={(tried || form.amount ? problems.amount : null) ?? transfer.refusalFor('amount')}>
            <input inputMode="decimal" value={form.amount} onChange={(e) => set('amount', e.target.value)} />
          </Field>
          <UnderstoodAmount shown={amount.ok ? amount.shown : null} className="span-all" />
          {form.operation === 'transfer' && <TransferTarget transfer={transfer} />}
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

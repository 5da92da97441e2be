// Back office: Issuance. The form (project, vintage, ex-post or ex-ante, amount typed in the user's
// locale, receiving organization, monitoring period, verification body, buffer share), then the
// review (the registry's dry run of exactly this body) and only then, on the user's confirmation,
// the write with its own idempotency key. Its state is useIssuance (issuance/), the form shared
// with transfers useLedgerForm (ledger/).
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { ErrorMessage } from '@renderer/components/feedback';
import { describeError } from '@renderer/lib/desk';
import { BackOfficePage } from './BackOfficePage';
import { LedgerReview } from './ledger/LedgerReview';
import { issuanceBody } from './issuance/issuanceForm';
import { IssuedCreditFields } from './issuance/IssuedCreditFields';
import { useIssuance } from './issuance/useIssuance';
import { VerificationFields } from './issuance/VerificationFields';

export function IssuanceScreen() {
  const issuance = useIssuance();
  const { form, amount, project, loadError } = issuance;
  const shown = amount.ok ? amount.shown : '';
  return (
    <BackOfficePage title="Issuance">
      {loadError !== null && loadError !== undefined && <ErrorMessage error={describeError(loadError)} onRetry={issuance.reload} />}
      {issuance.reviewing ? (
        <LedgerReview
          write="operatorIssueCredits"
          body={issuanceBody(form)}
          title={`Review the issuance of ${shown} to ${project?.fullName ?? ''}, vintage ${form.vintage}`}
          doneTitle={`Issued ${shown} to ${project?.fullName ?? ''}, vintage ${form.vintage}`}
          confirmLabel={`Issue ${shown}`}
          onBack={issuance.back}
          onRefused={issuance.refused}
        />
      ) : (
        <form className="form form-columns back-office-form" aria-label="Issuance" onSubmit={issuance.review(issuance.problems)}>
          <IssuedCreditFields issuance={issuance} />
          <VerificationFields issuance={issuance} />
          <div className="actions span-all">
            <GatedButton can="operatorIssueCredits" type="submit" className="button button-primary">
              Review issuance
            </GatedButton>
          </div>
        </form>
      )}
    </BackOfficePage>
  );
}

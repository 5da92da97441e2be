// Creating an organization: the form, then a review of exactly what will be sent, then the write
// (one idempotency key for the confirmed action) and its outcome. Nothing is sent before "Create".
import { useState } from 'react';
import { ORGANIZATION_TYPES, type OrganizationType } from '../../../../shared/registry/vocabulary';
import { countryName, humanize } from '../../lib/format';
import { useNavigation } from '../../stores/navigation';
import { Dialog } from '../../components/Dialog';
import { Facts } from '../../components/DefinitionList';
import { Field } from '../../components/Field';
import { ActionStatus } from '../../components/backOffice/ActionStatus';
import { GatedButton } from '../../components/backOffice/RoleGate';
import { useBackOfficeAction } from '../../components/backOffice/useBackOfficeAction';
import { ReviewFormActions } from '../../components/ReviewFormActions';

export function CreateOrganizationDialog({ onClose }: { onClose: () => void }) {
  const [fullName, setFullName] = useState('');
  const [countryCode, setCountryCode] = useState('');
  const [type, setType] = useState<OrganizationType>('projectProponent');
  const [isPublic, setIsPublic] = useState(true);
  const [website, setWebsite] = useState('');
  const [reviewing, setReviewing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const action = useBackOfficeAction('operatorCreateOrganization');
  const open = useNavigation((s) => s.openBackOffice);
  const body = { fullName: fullName.trim(), countryCode: countryCode.trim().toUpperCase(), type, isPublic, website: website.trim() };
  const state = action.state;

  return (
    <Dialog title={reviewing ? 'Review the new organization' : 'New organization'} onClose={onClose}>
      {!reviewing ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (body.fullName === '') return setProblem('Enter the organization’s name.');
            if (!/^[A-Z]{2}$/.test(body.countryCode)) return setProblem('The country is a two-letter code, for example KE.');
            setProblem(null);
            setReviewing(true);
          }}
        >
          <Field label="Name">
            <input value={fullName} onChange={(e) => setFullName(e.target.value)} maxLength={200} />
          </Field>
          <Field label="Country code" hint="Two letters (ISO 3166), for example KE for Kenya.">
            <input className="mono input-year" value={countryCode} onChange={(e) => setCountryCode(e.target.value)} maxLength={2} />
          </Field>
          <Field label="Type">
            <select value={type} onChange={(e) => setType(e.target.value as OrganizationType)}>
              {ORGANIZATION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {humanize(t)}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Website (optional)">
            <input value={website} onChange={(e) => setWebsite(e.target.value)} maxLength={300} />
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} />
            Public (listed by the registry’s public interface once verified)
          </label>
          {problem && (
            <p className="error-message" role="alert">
              {problem}
            </p>
          )}
          <ReviewFormActions onClose={onClose} />
        </form>
      ) : (
        <div className="form">
          <p>The registry will create this organization, not verified yet, with its accounts:</p>
          <Facts
            items={[
              ['Name', body.fullName],
              ['Country', `${countryName(body.countryCode)} (${body.countryCode})`],
              ['Type', humanize(body.type)],
              ['Website', body.website || '—'],
              ['Public', body.isPublic ? 'Yes' : 'No'],
              ['Verified', 'No (verify it from its page)'],
            ]}
          />
          <ActionStatus action={action} />
          <div className="actions">
            {state.phase === 'done' ? (
              <>
                <button type="button" className="button" onClick={onClose}>
                  Close
                </button>
                <button
                  type="button"
                  className="button button-primary"
                  onClick={() => {
                    onClose();
                    open('bo-organizations', { organizationId: state.data.organization.id });
                  }}
                >
                  Open its page
                </button>
              </>
            ) : (
              <>
                <button type="button" className="button" disabled={action.busy} onClick={() => setReviewing(false)}>
                  Back
                </button>
                <GatedButton
                  can="operatorCreateOrganization"
                  className="button button-primary"
                  disabledReason={
                    action.busy ? 'Sending…' : state.phase === 'unsure' ? 'Not sure yet whether it was made: check again' : null
                  }
                  onClick={() => void action.run({ body })}
                >
                  Create
                </GatedButton>
              </>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}

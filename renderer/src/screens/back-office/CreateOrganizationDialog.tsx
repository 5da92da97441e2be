// Creating an organization: the form, then a review of exactly what will be sent, then the write
// and its outcome (ReviewedWriteDialog). Nothing is sent before "Create".
import { useState } from 'react';
import type { OrganizationType } from '../../../../shared/registry/vocabulary';
import { countryName, humanize } from '../../lib/format';
import { useNavigation } from '../../stores/navigation';
import { Facts } from '../../components/DefinitionList';
import { Field } from '../../components/Field';
import { useBackOfficeAction } from '../../components/backOffice/useBackOfficeAction';
import { OrganizationTypeField, PublicCheckbox } from './OrganizationFields';
import { ReviewedWriteDialog, type ReviewCheck } from './ReviewedWriteDialog';

export function CreateOrganizationDialog({ onClose }: { onClose: () => void }) {
  const [fullName, setFullName] = useState('');
  const [countryCode, setCountryCode] = useState('');
  const [type, setType] = useState<OrganizationType>('projectProponent');
  const [isPublic, setIsPublic] = useState(true);
  const [website, setWebsite] = useState('');
  const action = useBackOfficeAction('operatorCreateOrganization');
  const open = useNavigation((s) => s.openBackOffice);
  const body = { fullName: fullName.trim(), countryCode: countryCode.trim().toUpperCase(), type, isPublic, website: website.trim() };

  return (
    <ReviewedWriteDialog
      title="New organization"
      reviewTitle="Review the new organization"
      action={action}
      onClose={onClose}
      check={(): ReviewCheck<typeof body> => {
        if (body.fullName === '') return { ok: false, problems: ['Enter the organization’s name.'] };
        if (!/^[A-Z]{2}$/.test(body.countryCode)) return { ok: false, problems: ['The country is a two-letter code, for example KE.'] };
        return { ok: true, reviewed: body };
      }}
      fields={
        <>
          <Field label="Name">
            <input value={fullName} onChange={(e) => setFullName(e.target.value)} maxLength={200} />
          </Field>
          <Field label="Country code" hint="Two letters (ISO 3166), for example KE for Kenya.">
            <input className="mono input-year" value={countryCode} onChange={(e) => setCountryCode(e.target.value)} maxLength={2} />
          </Field>
          <OrganizationTypeField value={type} onChange={setType} />
          <Field label="Website (optional)">
            <input value={website} onChange={(e) => setWebsite(e.target.value)} maxLength={300} />
          </Field>
          <PublicCheckbox checked={isPublic} onChange={setIsPublic} />
        </>
      }
      review={(reviewed) => (
        <>
          <p>The registry will create this organization, not verified yet, with its accounts:</p>
          <Facts
            items={[
              ['Name', reviewed.fullName],
              ['Country', `${countryName(reviewed.countryCode)} (${reviewed.countryCode})`],
              ['Type', humanize(reviewed.type)],
              ['Website', reviewed.website || '—'],
              ['Public', reviewed.isPublic ? 'Yes' : 'No'],
              ['Verified', 'No (verify it from its page)'],
            ]}
          />
        </>
      )}
      confirm="Create"
      request={(reviewed) => ({ body: reviewed })}
      doneActions={(data) => (
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            onClose();
            open('bo-organizations', { organizationId: data.organization.id });
          }}
        >
          Open its page
        </button>
      )}
    />
  );
}

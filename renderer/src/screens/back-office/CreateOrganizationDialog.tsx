// Creating an organization: the form, then a review of exactly what will be sent, then the write
// and its outcome (ReviewedWriteDialog). Nothing is sent before "Create".
import { useState } from 'react';
import type { OrganizationType } from '@shared/registry/vocabulary';
import { countryName, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { Facts } from '@renderer/components/DefinitionList';
import { Field } from '@renderer/components/Field';
import type { FormProblem } from '@renderer/components/FieldProblems';
import { isWebAddress } from '@shared/registry/web-address';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { CountryField, OrganizationTypeField, PublicCheckbox } from './OrganizationFields';
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
      doneTitle="Organization created"
      action={action}
      onClose={onClose}
      check={(): ReviewCheck<typeof body> => {
        const problems: FormProblem[] = [];
        if (body.fullName === '') problems.push({ field: 'fullName', message: 'Enter the organization’s name.' });
        if (body.countryCode === '') problems.push({ field: 'countryCode', message: 'Choose the organization’s country.' });
        if (body.website !== '' && !isWebAddress(body.website))
          problems.push({ field: 'website', message: 'Enter a full web address, for example https://example.org.' });
        return problems.length > 0 ? { ok: false, problems } : { ok: true, reviewed: body };
      }}
      fields={
        <>
          <Field label="Name" name="fullName">
            <input value={fullName} onChange={(e) => setFullName(e.target.value)} maxLength={200} />
          </Field>
          <CountryField value={countryCode} onChange={setCountryCode} name="countryCode" />
          <OrganizationTypeField value={type} onChange={setType} />
          <Field label="Website (optional)" name="website" hint="A full web address, for example https://example.org.">
            <input inputMode="url" value={website} onChange={(e) => setWebsite(e.target.value)} maxLength={300} />
          </Field>
          <PublicCheckbox checked={isPublic} onChange={setIsPublic} />
        </>
      }
      review={(reviewed, done) => (
        <>
          <p>
            {done
              ? 'The registry created this organization, not verified yet:'
              : 'The registry will create this organization, not verified yet:'}
          </p>
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

// Editing an organization: the form filled with its values, then a review of exactly what changes
// (each changed field, before → after), then the write (only the changed fields, one idempotency key
// for the confirmed action) and its outcome. Nothing is sent before "Save changes"; the page behind
// reloads once it is done.
import { useState } from 'react';
import { Field } from '@renderer/components/Field';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { CountryField, OrganizationTypeField, PublicCheckbox } from './OrganizationFields';
import { ReviewedWriteDialog, type ReviewCheck } from './ReviewedWriteDialog';
import { formFromOrganization, organizationEdit, type EditableOrganization, type OrganizationForm } from './organizationForm';

type Reviewed = Extract<ReturnType<typeof organizationEdit>, { ok: true }>;

export function EditOrganizationDialog({
  organization,
  onClose,
}: {
  organization: EditableOrganization & { id: string };
  onClose: () => void;
}) {
  // The values as read when the dialog opened: the page behind reloads after the write.
  const [original] = useState(() => formFromOrganization(organization));
  const [form, setForm] = useState<OrganizationForm>(original);
  const action = useBackOfficeAction('operatorUpdateOrganization');
  const set = (patch: Partial<OrganizationForm>) => setForm((f) => ({ ...f, ...patch }));
  const text = (label: string, key: keyof OrganizationForm, max: number, hint?: string) => (
    <Field label={label} hint={hint} name={key}>
      <input value={form[key] as string} maxLength={max} onChange={(e) => set({ [key]: e.target.value })} />
    </Field>
  );

  return (
    <ReviewedWriteDialog
      title="Edit organization"
      reviewTitle="Review the changes to the organization"
      doneTitle="Organization changed"
      action={action}
      onClose={onClose}
      check={(): ReviewCheck<Reviewed> => {
        const edit = organizationEdit(form, original);
        if (edit.ok === 'unchanged') return { ok: false, problems: ['Nothing was changed.'] };
        if (!edit.ok) return { ok: false, problems: edit.errors };
        return { ok: true, reviewed: edit };
      }}
      fields={
        <>
          {text('Name', 'fullName', 200)}
          <OrganizationTypeField value={form.type} onChange={(type) => set({ type })} />
          <CountryField value={form.countryCode} onChange={(countryCode) => set({ countryCode })} name="countryCode" />
          {text('City', 'city', 100)}
          {text('Postal code', 'zip', 20)}
          {text('Address', 'physicalAddress', 300)}
          {text('Registration number', 'registrationNumber', 60)}
          {text('Website', 'website', 300, 'A full web address, for example https://example.org.')}
          {text('Logo URL', 'logo', 500)}
          <div className="form-inline">
            {text('Industry code', 'industryCode', 20)}
            {text('Industry name', 'industryName', 120)}
          </div>
          <PublicCheckbox checked={form.isPublic} onChange={(isPublic) => set({ isPublic })} />
        </>
      }
      review={(reviewed, done) => (
        <>
          <p>
            The registry {done ? 'changed' : 'will change'}{' '}
            {reviewed.changes.length === 1 ? 'this field' : `these ${reviewed.changes.length} fields`} of {original.fullName}, and nothing
            else:
          </p>
          <table className="simple-table" aria-label={done ? 'What changed' : 'What changes'}>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {reviewed.changes.map((c) => (
                <tr key={c.field}>
                  <th scope="row">{c.label}</th>
                  <td>{c.before || '—'}</td>
                  <td>{c.after || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      confirm="Save changes"
      request={(reviewed) => ({ params: { organizationId: organization.id }, body: reviewed.body })}
    />
  );
}

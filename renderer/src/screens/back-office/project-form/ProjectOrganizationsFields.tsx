// Who a project belongs to: its owner and other proponents (project proponents) and its validators
// (validation and verification bodies; not buyers, nor the registry itself). An organization whose
// type is not known yet is offered, and a draft's present choices stay offered.
import { useMemo } from 'react';
import { Field } from '@renderer/components/Field';
import { compareNames } from '@renderer/lib/format';
import type { ProjectForm } from '../projectForm';
import { OrganizationsSelect } from './OrganizationsSelect';

export function ProjectOrganizationsFields({
  organizations,
  organizationTypes,
  original,
  form,
  set,
}: {
  organizations: Map<string, string>;
  organizationTypes?: Map<string, string>;
  /** The form as the dialog opened: its choices stay offered. */
  original: ProjectForm;
  form: ProjectForm;
  set: (patch: Partial<ProjectForm>) => void;
}) {
  // By name, in the desk locale's collation, as every list of names in the desk.
  const orgOptions = useMemo(() => [...organizations].sort((a, b) => compareNames(a[1], b[1])), [organizations]);
  const chosen = [original.organizationId, ...original.proponentIds, ...original.validatorIds];
  const ofType = (type: string) =>
    orgOptions.filter(([id]) => !organizationTypes?.has(id) || organizationTypes.get(id) === type || chosen.includes(id));
  const proponentOptions = ofType('projectProponent');
  return (
    <>
      <Field label="Proponent organization (owner)">
        <select value={form.organizationId} onChange={(e) => set({ organizationId: e.target.value })}>
          <option value="">Choose…</option>
          {proponentOptions.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <OrganizationsSelect
        label="Other proponents"
        options={proponentOptions.filter(([id]) => id !== form.organizationId)}
        value={form.proponentIds}
        onChange={(proponentIds) => set({ proponentIds })}
      />
      <OrganizationsSelect
        label="Validators"
        options={ofType('validationVerificationBody')}
        value={form.validatorIds}
        onChange={(validatorIds) => set({ validatorIds })}
      />
    </>
  );
}

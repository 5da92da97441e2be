// The operator's project form in a dialog: a new draft, or an edit of a draft. Every field of the
// interface's project (2.5): names and descriptions, dates, estimates, place and location, sector,
// methodology and type, proponents and validators, documents and the KML file, other benefits.
// The registry's input schemas check it before it is sent (projectForm.ts); saving is the confirmed
// action (one idempotency key). Its state is useProjectForm; its groups of fields are in project-form/.
import type { ReactNode } from 'react';
import type { Project } from '@shared/registry/resources';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { DateInput } from '@renderer/components/DateInput';
import { dateHint } from '@renderer/lib/localeDate';
import { ProblemList } from '@renderer/components/ProblemList';
import { WriteActions } from './DialogActions';
import { NewDraftReview } from './NewDraftReview';
import { CountryField } from './OrganizationFields';
import { ProjectVocabularyFields } from './ProjectVocabularyFields';
import type { ProjectForm } from './projectForm';
import { OtherBenefitsFields } from './project-form/OtherBenefitsFields';
import { ProjectDocumentsFields } from './project-form/ProjectDocumentsFields';
import { ProjectOrganizationsFields } from './project-form/ProjectOrganizationsFields';
import { useProjectForm } from './project-form/useProjectForm';

export function ProjectFormDialog({
  project,
  organizations,
  organizationTypes,
  onClose,
  onCreated,
}: {
  /** The project to edit (its `details`), or none for a new draft. */
  project?: { id: string; details: Project };
  organizations: Map<string, string>;
  /** Each organization's type (projectProponent, buyer…): who may own, propose or validate. */
  organizationTypes?: Map<string, string>;
  onClose: () => void;
  onCreated?: (id: string) => void;
}) {
  const { original, form, set, errors, reviewing, create, action, save, backFromReview } = useProjectForm(project);

  if (reviewing)
    return (
      <NewDraftReview
        body={reviewing}
        organizations={organizations}
        action={create}
        onClose={onClose}
        onBack={backFromReview}
        onCreated={onCreated}
      />
    );

  const text = (label: string, key: keyof ProjectForm, props: { hint?: ReactNode; max?: number } = {}) => (
    <Field label={label} hint={props.hint}>
      <input type="text" value={form[key] as string} maxLength={props.max} onChange={(e) => set({ [key]: e.target.value })} />
    </Field>
  );

  return (
    <Dialog title={project ? `Edit draft: ${original.fullName}` : 'New draft project'} onClose={onClose} wide>
      <form
        className="form form-columns project-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {text('Project name', 'fullName', { max: 300 })}
        {text('Short description', 'shortDescription', { max: 1000 })}
        <div className="span-all">
          <Field label="Description">
            <textarea rows={3} value={form.description} onChange={(e) => set({ description: e.target.value })} />
          </Field>
        </div>
        <Field label="Start date" hint={dateHint()}>
          <DateInput value={form.startDate} onChange={(startDate) => set({ startDate })} />
        </Field>
        <Field label="Crediting period start" hint={dateHint()}>
          <DateInput value={form.creditingPeriodStartDate} onChange={(creditingPeriodStartDate) => set({ creditingPeriodStartDate })} />
        </Field>
        <Field label="Estimated annual mitigations (tCO2e)" hint="One year per line; leave a line empty for an unknown year.">
          <textarea
            rows={3}
            value={form.estimatedAnnualMitigations}
            onChange={(e) => set({ estimatedAnnualMitigations: e.target.value })}
          />
        </Field>
        {text('Thumbnail URL', 'thumbnail', { max: 1000 })}
        <CountryField value={form.countryCode} onChange={(countryCode) => set({ countryCode })} />
        {text('State or region', 'state', { max: 100 })}
        {text('City', 'city', { max: 100 })}
        <div className="form-inline">
          {text('Latitude', 'lat', { hint: '-90 to 90' })}
          {text('Longitude', 'lng', { hint: '-180 to 180' })}
        </div>
        <ProjectVocabularyFields form={form} set={set} />
        <div className="span-all">{text('Type description', 'typeDescription', { max: 2000 })}</div>
        <ProjectOrganizationsFields
          organizations={organizations}
          organizationTypes={organizationTypes}
          original={original}
          form={form}
          set={set}
        />
        <ProjectDocumentsFields form={form} set={set} />
        <OtherBenefitsFields form={form} set={set} />
        <ProblemList problems={errors} className="span-all" />
        <div className="span-all">
          <WriteActions action={action} onClose={onClose}>
            {project ? 'Save changes' : 'Review'}
          </WriteActions>
        </div>
      </form>
    </Dialog>
  );
}

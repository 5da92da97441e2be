// The operator's project form in a dialog: a new draft, or an edit of a draft. Every field of the
// interface's project (2.5): names and descriptions, dates, estimates, place and location, sector,
// methodology and type, proponents and validators, documents and the KML file, other benefits.
// The registry's input schemas check it before it is sent (projectForm.ts); saving is the confirmed
// action (one idempotency key).
import { useMemo, useState, type ReactNode } from 'react';
import type { Project } from '@shared/registry/resources';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { DateInput } from '@renderer/components/DateInput';
import { dateHint } from '@renderer/lib/localeDate';
import { ProblemList } from '@renderer/components/ProblemList';
import { WriteActions } from './DialogActions';
import { NewDraftReview, type NewDraft } from './NewDraftReview';
import { CountryField } from './OrganizationFields';
import { ProjectVocabularyFields } from './ProjectVocabularyFields';
import { DocumentFields } from './project-form/DocumentFields';
import { OrganizationsSelect } from './project-form/OrganizationsSelect';
import { createBody, emptyDocument, emptyProjectForm, formFromProject, updateBody, type ProjectForm } from './projectForm';

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
  // The values as read when the dialog opened, never rebuilt: a sync that brings another operator's
  // change while it is open must not make the form's older value look like an edit of this operator.
  const [original] = useState(() => (project ? formFromProject(project.details) : emptyProjectForm()));
  const [form, setForm] = useState<ProjectForm>(original);
  const [errors, setErrors] = useState<string[]>([]);
  /** A new draft's body under review (nothing is sent before its confirming button). */
  const [reviewing, setReviewing] = useState<NewDraft | null>(null);
  const create = useBackOfficeAction('operatorCreateProject');
  const update = useBackOfficeAction('operatorUpdateProject');
  const action = project ? update : create;
  const set = (patch: Partial<ProjectForm>) => setForm((f) => ({ ...f, ...patch }));
  const setBenefit = (i: number, patch: Partial<ProjectForm['otherBenefits'][number]>) =>
    set({ otherBenefits: form.otherBenefits.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
  const orgOptions = useMemo(() => [...organizations].sort((a, b) => a[1].localeCompare(b[1])), [organizations]);
  // Owners and other proponents are project proponents; validators are validation and verification
  // bodies (not buyers, nor the registry itself). An organization whose type is not known yet is offered.
  // A draft's present choices stay offered.
  const chosen = [original.organizationId, ...original.proponentIds, ...original.validatorIds];
  const ofType = (type: string) =>
    orgOptions.filter(([id]) => !organizationTypes?.has(id) || organizationTypes.get(id) === type || chosen.includes(id));
  const proponentOptions = ofType('projectProponent');

  const save = async () => {
    if (project) {
      const checked = updateBody(form, original);
      if (checked.ok === 'unchanged') return setErrors(['Nothing was changed.']);
      if (!checked.ok) return setErrors(checked.errors);
      setErrors([]);
      await update.run({ params: { projectId: project.id }, body: checked.body });
    } else {
      const checked = createBody(form);
      if (!checked.ok) return setErrors(checked.errors);
      setErrors([]);
      if (create.state.phase === 'refused' || create.state.phase === 'failed') create.reset();
      setReviewing(checked.body);
    }
  };

  if (reviewing)
    return (
      <NewDraftReview
        body={reviewing}
        organizations={organizations}
        action={create}
        onClose={onClose}
        onBack={() => {
          if (create.state.phase === 'refused' || create.state.phase === 'failed') create.reset();
          setReviewing(null);
        }}
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
        <fieldset className="span-all form">
          <legend>Documents</legend>
          {form.documentation.map((d, i) => (
            <DocumentFields
              key={i}
              label={`Document ${i + 1}`}
              document={d}
              onChange={(next) => set({ documentation: form.documentation.map((x, j) => (j === i ? next : x)) })}
              onRemove={() => set({ documentation: form.documentation.filter((_, j) => j !== i) })}
            />
          ))}
          <div>
            <button
              type="button"
              className="button button-small"
              onClick={() => set({ documentation: [...form.documentation, emptyDocument()] })}
            >
              Add a document
            </button>
          </div>
        </fieldset>
        <fieldset className="span-all form">
          <legend>Location file (KML)</legend>
          {form.kmlFile ? (
            <DocumentFields
              label="KML file"
              document={form.kmlFile}
              onChange={(next) => set({ kmlFile: next })}
              onRemove={() => set({ kmlFile: null })}
            />
          ) : (
            <div>
              <button type="button" className="button button-small" onClick={() => set({ kmlFile: { ...emptyDocument(), type: 'kml' } })}>
                Add a KML file
              </button>
            </div>
          )}
        </fieldset>
        <fieldset className="span-all form">
          <legend>Other benefits</legend>
          {form.otherBenefits.map((b, i) => (
            <div key={i} className="form-inline" role="group" aria-label={`Benefit ${i + 1}`}>
              <Field label="Number">
                <input inputMode="numeric" size={4} value={b.id} onChange={(e) => setBenefit(i, { id: e.target.value })} />
              </Field>
              <Field label="Title">
                <input value={b.title} onChange={(e) => setBenefit(i, { title: e.target.value })} />
              </Field>
              <Field label="Description">
                <input value={b.description} onChange={(e) => setBenefit(i, { description: e.target.value })} />
              </Field>
              <label className="checkbox">
                <input type="checkbox" checked={b.checked} onChange={(e) => setBenefit(i, { checked: e.target.checked })} />
                <span>Delivered</span>
              </label>
              <button
                type="button"
                className="button button-small"
                onClick={() => set({ otherBenefits: form.otherBenefits.filter((_, j) => j !== i) })}
              >
                Remove benefit {i + 1}
              </button>
            </div>
          ))}
          <div>
            <button
              type="button"
              className="button button-small"
              onClick={() =>
                set({
                  otherBenefits: [
                    ...form.otherBenefits,
                    { id: String(form.otherBenefits.length + 1), title: '', checked: false, description: '' },
                  ],
                })
              }
            >
              Add a benefit
            </button>
          </div>
        </fieldset>
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

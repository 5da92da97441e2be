// A project's other benefits (numbered, titled, described, delivered or not), each added and removed
// with its own button.
import { Field } from '@renderer/components/Field';
import type { ProjectForm } from '../projectForm';

type Benefit = ProjectForm['otherBenefits'][number];

export function OtherBenefitsFields({ form, set }: { form: ProjectForm; set: (patch: Partial<ProjectForm>) => void }) {
  const setBenefit = (i: number, patch: Partial<Benefit>) =>
    set({ otherBenefits: form.otherBenefits.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
  return (
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
  );
}

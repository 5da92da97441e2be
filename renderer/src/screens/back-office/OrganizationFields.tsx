// The fields a new organization and an edited one share: its type and whether it is public.
import { ORGANIZATION_TYPES, type OrganizationType } from '../../../../shared/registry/vocabulary';
import { humanize } from '../../lib/format';
import { Field } from '../../components/Field';

export function OrganizationTypeField({ value, onChange }: { value: OrganizationType; onChange: (type: OrganizationType) => void }) {
  return (
    <Field label="Type">
      <select value={value} onChange={(e) => onChange(e.target.value as OrganizationType)}>
        {ORGANIZATION_TYPES.map((t) => (
          <option key={t} value={t}>
            {humanize(t)}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function PublicCheckbox({ checked, onChange }: { checked: boolean; onChange: (isPublic: boolean) => void }) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      Public (listed by the registry’s public interface once verified)
    </label>
  );
}

import { Field } from '@renderer/components/Field';

/** A choice of several organizations, by name. */
export function OrganizationsSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: [string, string][];
  value: string[];
  onChange: (ids: string[]) => void;
}) {
  return (
    <Field label={label} hint="Ctrl or Shift to choose several.">
      <select multiple size={4} value={value} onChange={(e) => onChange([...e.target.selectedOptions].map((o) => o.value))}>
        {options.map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
    </Field>
  );
}

// A choice of one organization by its name, inside a Field (which gives it its id and description):
// the first option, valued "", stands for no choice yet.
interface Named {
  id: string;
  fullName: string;
}

export function OrganizationSelect({
  value,
  onChange,
  organizations,
  placeholder,
  ...fromField
}: {
  value: string;
  onChange: (id: string) => void;
  organizations: readonly Named[];
  /** The first option's text: "Choose…", "The project owner". */
  placeholder: string;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  return (
    <select value={value} onChange={(e) => onChange(e.target.value)} {...fromField}>
      <option value="">{placeholder}</option>
      {organizations.map((o) => (
        <option key={o.id} value={o.id}>
          {o.fullName}
        </option>
      ))}
    </select>
  );
}

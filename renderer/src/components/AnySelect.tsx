// A list filter that is one choice among fixed values, or "Any" (the empty value): the projects'
// status, the audit log's action and outcome, the organizations' type, country, verified and public.
// Written out by hand in each screen before; `className` is the layout of the screen's other fields.

export function AnySelect<V extends string>({
  label,
  value,
  options,
  onChange,
  className = 'filter',
}: {
  label: string;
  value: V | '';
  /** Each value with the words shown for it, in the order shown. */
  options: readonly (readonly [V, string])[];
  onChange: (value: V | '') => void;
  className?: string;
}) {
  return (
    <label className={className}>
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as V | '')}>
        <option value="">Any</option>
        {options.map(([v, words]) => (
          <option key={v} value={v}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}

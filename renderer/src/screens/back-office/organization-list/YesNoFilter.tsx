// A list filter on a yes-or-no property (verified, public): any, yes or no.
export type YesNo = '' | 'yes' | 'no';

export function YesNoFilter({ label, value, onChange }: { label: string; value: YesNo; onChange: (value: YesNo) => void }) {
  return (
    <label className="filter">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as YesNo)}>
        <option value="">Any</option>
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </select>
    </label>
  );
}

// One choice among a few, as radio buttons with a line of explanation each, across the whole width
// of a form of columns (a ledger write's operation, an issuance's credit type).
export interface Choice<Value extends string> {
  id: Value;
  label: string;
  hint: string;
}

export function ChoiceGroup<Value extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
}: {
  legend: string;
  /** The radio buttons' shared name (one group per name in a form). */
  name: string;
  choices: readonly Choice<Value>[];
  value: Value;
  onChange: (value: Value) => void;
}) {
  return (
    <fieldset className="choice-group span-all">
      <legend>{legend}</legend>
      {choices.map((c) => (
        <label key={c.id} className="choice">
          <input type="radio" name={name} value={c.id} checked={value === c.id} onChange={() => onChange(c.id)} />
          <span>
            <strong>{c.label}</strong>
            <span className="field-hint"> {c.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

// The fields a new organization and an edited one share: its type, its country (picked by name)
// and whether it is public.
import { COUNTRIES } from '@shared/registry/countries';
import { ORGANIZATION_TYPES, type OrganizationType } from '@shared/registry/vocabulary';
import { compareNames, countryName, humanize } from '@renderer/lib/format';
import { Field } from '@renderer/components/Field';

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

/** Every ISO 3166 country, by its name in the desk's locale (sorted by that name), code after it. */
export function countriesByName(): [code: string, name: string][] {
  return Object.keys(COUNTRIES)
    .map((code): [string, string] => [code, countryName(code)])
    .sort((a, b) => compareNames(a[1], b[1]));
}

export function CountryField({ value, onChange, name }: { value: string; onChange: (code: string) => void; name?: string }) {
  const known = value === '' || value in COUNTRIES;
  return (
    <Field label="Country" name={name}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        {!known && <option value={value}>{value} (not a country code)</option>}
        {countriesByName().map(([code, name]) => (
          <option key={code} value={code}>
            {name} ({code})
          </option>
        ))}
      </select>
    </Field>
  );
}

// The desk's own date field: text typed as the desk's locale writes dates (lib/localeDate.ts), not
// a native <input type="date">, whose fields follow the browser's language instead. The form keeps
// the text as typed (as it keeps an amount); once the field is left, a date it understood is
// written back in the locale's own form ("1.2.2026" becomes "01.02.2026"), so what will be sent is seen.
import { useId } from 'react';
import { DESK_LOCALE } from '@renderer/lib/format';
import { dateShape, formatLocaleDateInput, parseLocaleDate } from '@renderer/lib/localeDate';

export function DateInput({
  value,
  onChange,
  locale = DESK_LOCALE,
  ...rest
}: {
  value: string;
  onChange: (text: string) => void;
  locale?: string;
  id?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  return (
    <input
      {...rest}
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      placeholder={dateShape(locale).pattern}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={() => {
        const read = parseLocaleDate(value, locale);
        if (!read.ok) return;
        const shown = formatLocaleDateInput(read.iso, locale);
        if (shown !== value) onChange(shown);
      }}
    />
  );
}

/**
 * A date in a row of filters: its label, the field (the locale's pattern as its placeholder) and,
 * when the text is not a date, why (beside it, as every form problem is).
 */
export function DateFilterField({
  label,
  value,
  onChange,
  problem,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  problem: string | null;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <DateInput
        id={id}
        value={value}
        onChange={onChange}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
      />
      {problem && (
        <span id={problemId} className="field-error">
          {problem}
        </span>
      )}
    </div>
  );
}

// A labelled form control: the label is a real <label> so getByLabel and screen readers find it.
// Its error is the one given, else the form's problem for its `name` (FieldProblems.tsx).
import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { useFieldProblem } from './FieldProblems';

export function Field({
  label,
  hint,
  error: given,
  name,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** The field's name in its form's problems (FieldProblemsProvider). */
  name?: string;
  children: ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }>;
}) {
  const id = useId();
  const fromForm = useFieldProblem(name);
  const error = given ?? fromForm;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

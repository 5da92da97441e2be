// A form's problems beside the fields they are about. The form provides them by field name; a
// <Field name="…"> shows its own as its error (aria-invalid, aria-describedby), so each problem is
// shown once, where it is fixed, and read out when focus reaches the field.
import { createContext, useContext } from 'react';

/** A problem the user must fix: about one field (the `name` of a Field in the form), or the form as a whole. */
export type FormProblem = string | { field: string; message: string };

const FieldProblemsContext = createContext<ReadonlyMap<string, string>>(new Map());

export const FieldProblemsProvider = FieldProblemsContext.Provider;

/** The problem of the field named `name` in the form around it, if any. */
export function useFieldProblem(name: string | undefined): string | undefined {
  const problems = useContext(FieldProblemsContext);
  return name === undefined ? undefined : problems.get(name);
}

/** Splits problems into the ones shown beside their fields (by name) and the ones about the whole form. */
export function splitProblems(problems: readonly FormProblem[]): { byField: Map<string, string>; general: string[] } {
  const byField = new Map<string, string>();
  const general: string[] = [];
  for (const problem of problems) {
    if (typeof problem === 'string') general.push(problem);
    else if (!byField.has(problem.field)) byField.set(problem.field, problem.message);
  }
  return { byField, general };
}

/** Every problem's text, for the summary a screen reader hears. */
export const problemText = (problem: FormProblem): string => (typeof problem === 'string' ? problem : problem.message);

// What the two ledger forms (issuance, transfers) keep alike: the values typed, whether the user has
// tried to review them (a field's problem shows from then on), and whether the review is open in
// the form's place.
import { useState, type FormEvent } from 'react';
import { say } from '@renderer/components/Announcer';
import { reportFormProblems } from '@renderer/lib/focus';

export function useLedgerForm<Form extends { amount: string }>(
  empty: Form,
  /** The values a change of `key` clears (a transfer's credit, once its source changes). */
  clears?: (key: keyof Form) => Partial<Form>,
) {
  const [form, setForm] = useState<Form>(empty);
  const [reviewing, setReviewing] = useState(false);
  const [tried, setTried] = useState(false);
  // The registry's refusal of a review about one field, shown at that field while the form is
  // exactly as it was reviewed (the refusal was of that body; any change may have mended it).
  const [refusal, setRefusal] = useState<{ field: string; text: string; reviewed: string } | null>(null);
  const refused = (r: { field: string; text: string } | null) =>
    setRefusal(r && r.field in form ? { ...r, reviewed: JSON.stringify(form) } : null);
  const refusalFor = (key: keyof Form & string) =>
    refusal?.field === key && refusal.reviewed === JSON.stringify(form) ? refusal.text : null;
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value, ...clears?.(key) }));
  /** The form's submit: the review opens when nothing is wrong. */
  const review = (problems: Readonly<Record<string, string>>) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setTried(true);
    if (Object.keys(problems).length === 0) setReviewing(true);
    // Refused: focus the first field to fix and say why (else nothing is heard or seen to happen).
    else reportFormProblems(e.currentTarget, Object.values(problems), say);
  };
  /** Back from the review; `made` when the write was made. */
  const back = (made: boolean) => {
    setReviewing(false);
    // A new write starts without the last amount: sent again by mistake it would issue or move twice.
    if (made) {
      setForm((f) => ({ ...f, amount: '' }));
      // A new form: its problems are said once the user tries to review it, not before.
      setTried(false);
    }
  };
  return { form, set, tried, reviewing, review, back, refused, refusalFor };
}

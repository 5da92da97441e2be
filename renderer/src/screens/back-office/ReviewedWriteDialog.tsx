// A back-office write reviewed before it is sent: the form, then a review of exactly what will be
// sent, then the write (one idempotency key for the confirmed action) and its outcome. Nothing is
// sent before the confirming button; "Back" returns to the form as it was filled, "Cancel" closes.
// Focus moves into each new step (never left on <body> or the dialog when the form's button goes).
// The form's problems are shown once each: beside the field they are about (focus goes to the first
// of them, and all are said), and those about the whole form listed under it. Once a review was
// asked for they follow the fields: a problem fixed goes at once (it stayed until the next
// "Review" and read as if the fix had not been taken), and one made since shows.
import { useRef, useState, type ReactNode } from 'react';
import type { BackOfficeData, OperatorWriteName } from '@shared/desk/back-office';
import { Dialog } from '@renderer/components/Dialog';
import { ProblemList } from '@renderer/components/ProblemList';
import { FieldProblemsProvider, problemText, splitProblems, type FormProblem } from '@renderer/components/FieldProblems';
import { say } from '@renderer/components/Announcer';
import { reportFormProblems } from '@renderer/lib/focus';
import { ReviewFormActions } from '@renderer/components/ReviewFormActions';
import type { BackOfficeAction, BackOfficeActionRequest } from '@renderer/components/backOffice/useBackOfficeAction';
import { WriteActions } from './DialogActions';

/** What the form's check answers: what to review, or what is wrong. */
export type ReviewCheck<R> = { ok: true; reviewed: R } | { ok: false; problems: FormProblem[] };

export function ReviewedWriteDialog<E extends OperatorWriteName, R>({
  title,
  reviewTitle,
  doneTitle,
  action,
  onClose,
  check,
  fields,
  review,
  confirm,
  request,
  outcome,
  doneActions,
}: {
  title: string;
  reviewTitle: string;
  /** The title once done: a heading that still said "Review …" read as if nothing had been sent. */
  doneTitle: string;
  action: BackOfficeAction<E>;
  onClose: () => void;
  check: () => ReviewCheck<R>;
  /** The form's fields (their state is the caller's, so "Back" finds them filled). */
  fields: ReactNode;
  /** What will be sent, or once `done` what was sent: its sentences in the past tense then. */
  review: (reviewed: R, done: boolean) => ReactNode;
  /** The confirming button's label. */
  confirm: string;
  request: (reviewed: R) => BackOfficeActionRequest;
  /** What the done write tells, under its outcome line. */
  outcome?: (data: BackOfficeData<E>) => ReactNode;
  /** What stands beside "Close" once done. */
  doneActions?: (data: BackOfficeData<E>) => ReactNode;
}) {
  const [reviewed, setReviewed] = useState<{ value: R } | null>(null);
  const [tried, setTried] = useState(false);
  const now = tried && !reviewed ? check() : null;
  const problems: FormProblem[] = now && !now.ok ? now.problems : [];
  const { byField, general } = splitProblems(problems);
  const formRef = useRef<HTMLFormElement>(null);
  const done = action.state.phase === 'done' ? action.state.data : null;
  // A refusal (or a write the desk could not send) belongs to the reviewed values it answered:
  // once the user goes back to change them it is no longer true, so it is not shown again.
  const forgetOutcome = () => {
    if (action.state.phase === 'refused' || action.state.phase === 'failed') action.reset();
  };

  return (
    // Focus goes into each step: on the review to what will be sent, never to Cancel, where a
    // reflexive Enter would throw the form away; once done to the outcome line (the confirming
    // button it was on is gone, and focus fell to the dialog itself).
    <Dialog title={done ? doneTitle : reviewed ? reviewTitle : title} step={done ? 'done' : reviewed ? 'review' : 'form'} onClose={onClose}>
      {!reviewed ? (
        <form
          ref={formRef}
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const checked = check();
            setTried(true);
            if (!checked.ok) {
              // Beside their fields they are in no alert: focus the first, and say them (the rest are in the alert below).
              const besideFields = checked.problems.filter((p) => typeof p !== 'string').map(problemText);
              reportFormProblems(formRef.current, besideFields, say);
              return;
            }
            forgetOutcome();
            setReviewed({ value: checked.reviewed });
          }}
        >
          <FieldProblemsProvider value={byField}>{fields}</FieldProblemsProvider>
          <ProblemList problems={general} />
          <ReviewFormActions onClose={onClose} />
        </form>
      ) : (
        <div className="form">
          <div role="group" aria-label={done ? 'What was sent' : 'What will be sent'} tabIndex={-1} data-step-focus={done ? undefined : ''}>
            {review(reviewed.value, done !== null)}
          </div>
          <WriteActions
            action={action}
            onClose={onClose}
            onBack={() => {
              forgetOutcome();
              setReviewed(null);
            }}
            onConfirm={() => void action.run(request(reviewed.value))}
            outcome={done && outcome?.(done)}
            done={done && doneActions?.(done)}
          >
            {confirm}
          </WriteActions>
        </div>
      )}
    </Dialog>
  );
}

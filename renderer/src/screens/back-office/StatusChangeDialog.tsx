// A project's status change, reviewed with the operator's comment before it is sent.
import { useRef, useState } from 'react';
import type { ProjectStatus } from '@shared/registry/vocabulary';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { Facts } from '@renderer/components/DefinitionList';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { humanize } from '@renderer/lib/format';
import { WriteActions } from './DialogActions';

/** What each status change is called on its button. */
export const CHANGE_LABEL: Record<ProjectStatus, string> = {
  draft: 'Back to draft',
  submitted: 'Submit',
  validated: 'Validate',
  registered: 'Register',
  rejected: 'Reject',
  withdrawn: 'Withdraw',
};

/** A done status change's title: what happened, no longer the question asked. */
const CHANGED_LABEL: Record<ProjectStatus, string> = {
  draft: 'Back to draft',
  submitted: 'Submitted',
  validated: 'Validated',
  registered: 'Registered',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};

export function StatusChangeDialog({
  projectId,
  name,
  from,
  to,
  onClose,
}: {
  projectId: string;
  name: string;
  from: ProjectStatus;
  to: ProjectStatus;
  onClose: () => void;
}) {
  const action = useBackOfficeAction('operatorSetProjectStatus');
  // The status as the dialog opened: the project re-read after the change already has the new one.
  const [before] = useState(from);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const commentField = useRef<HTMLTextAreaElement>(null);
  return (
    <Dialog title={`${(action.state.phase === 'done' ? CHANGED_LABEL : CHANGE_LABEL)[to]}: ${name}`} onClose={onClose}>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          // Refused here: focus goes to the comment (the button it was on stays, so nothing seemed to happen).
          if (!comment.trim()) {
            setError('Write a comment: say why the status changes.');
            commentField.current?.focus();
            return;
          }
          setError(null);
          void action.run({ params: { projectId }, body: { status: to, comment: comment.trim() } });
        }}
      >
        <p>
          {action.state.phase === 'done' ? 'Moved from' : 'From'} <strong>{humanize(before)}</strong> to <strong>{humanize(to)}</strong>.
        </p>
        {action.state.phase === 'done' ? (
          // What was sent, as text: a field still editable after Done looked as if it could be changed.
          <Facts items={[['Comment', comment.trim()]]} />
        ) : (
          <Field label="Comment (required)" hint="Say why; kept in the project’s status history." error={error}>
            <textarea ref={commentField} rows={3} maxLength={2000} value={comment} onChange={(e) => setComment(e.target.value)} />
          </Field>
        )}
        <WriteActions action={action} onClose={onClose}>
          {CHANGE_LABEL[to]}
        </WriteActions>
      </form>
    </Dialog>
  );
}

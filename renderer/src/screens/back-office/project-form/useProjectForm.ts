// The project dialog's state: the form (from the project as read when the dialog opened, or empty
// for a new draft), its problems, and the save: an edit is sent at once (only what changed), a new
// draft goes to its review first (nothing is sent before its confirming button).
import { useState } from 'react';
import type { Project } from '@shared/registry/resources';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import type { NewDraft } from '../NewDraftReview';
import { createBody, emptyProjectForm, formFromProject, updateBody, type ProjectForm } from '../projectForm';

export function useProjectForm(project: { id: string; details: Project } | undefined) {
  // The values as read when the dialog opened, never rebuilt: a sync that brings another operator's
  // change while it is open must not make the form's older value look like an edit of this operator.
  const [original] = useState(() => (project ? formFromProject(project.details) : emptyProjectForm()));
  const [form, setForm] = useState<ProjectForm>(original);
  const [errors, setErrors] = useState<string[]>([]);
  /** A new draft's body under review (nothing is sent before its confirming button). */
  const [reviewing, setReviewing] = useState<NewDraft | null>(null);
  const create = useBackOfficeAction('operatorCreateProject');
  const update = useBackOfficeAction('operatorUpdateProject');
  const set = (patch: Partial<ProjectForm>) => setForm((f) => ({ ...f, ...patch }));
  /** A refused or failed creation is forgotten once the user goes on editing or reviewing. */
  const resetRefusal = () => {
    if (create.state.phase === 'refused' || create.state.phase === 'failed') create.reset();
  };

  const save = async () => {
    if (project) {
      const checked = updateBody(form, original);
      if (checked.ok === 'unchanged') return setErrors(['Nothing was changed.']);
      if (!checked.ok) return setErrors(checked.errors);
      setErrors([]);
      await update.run({ params: { projectId: project.id }, body: checked.body });
    } else {
      const checked = createBody(form);
      if (!checked.ok) return setErrors(checked.errors);
      setErrors([]);
      resetRefusal();
      setReviewing(checked.body);
    }
  };
  const backFromReview = () => {
    resetRefusal();
    setReviewing(null);
  };
  return { original, form, set, errors, reviewing, create, action: project ? update : create, save, backFromReview };
}

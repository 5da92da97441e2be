// Back office, Apps and installations: grant or revoke an app's examiner rights, after a review of
// what changes. It once changed at the first click, the one write of the screen sent unreviewed.
import { useState } from 'react';
import type { BackOfficeData } from '@shared/desk/back-office';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { Facts } from '@renderer/components/DefinitionList';
import { Dialog } from '@renderer/components/Dialog';
import { WriteActions } from './DialogActions';

type App = Pick<BackOfficeData<'operatorListApps'>['apps'][number], 'id' | 'name' | 'examinerRead'>;

export function ExaminerDialog({ app, onClose }: { app: App; onClose: () => void }) {
  const action = useBackOfficeAction('operatorSetExaminer');
  // What it was when opened: the list re-read after the write must not turn the review around.
  const [granted] = useState(app.examinerRead);
  const next = !granted;
  const done = action.state.phase === 'done';
  return (
    <Dialog
      title={
        done
          ? `Examiner rights ${next ? 'granted to' : 'revoked for'} ${app.name}`
          : `${next ? 'Grant' : 'Revoke'} examiner rights of ${app.name}?`
      }
      onClose={onClose}
    >
      <div className="form">
        <Facts
          items={[
            ['App', app.name],
            ['Examiner rights', `${granted ? 'Granted' : 'Not granted'} → ${next ? 'Granted' : 'Not granted'}`],
            [
              'Effect',
              next
                ? 'The app may read every project’s internal views, at once, with each of its access tokens.'
                : 'The app can no longer read projects’ internal views, at once, with any of its access tokens.',
            ],
          ]}
        />
        <WriteActions
          action={action}
          onClose={onClose}
          onConfirm={() => void action.run({ params: { appId: app.id }, body: { granted: next } })}
        >
          {next ? 'Grant examiner rights' : 'Revoke examiner rights'}
        </WriteActions>
      </div>
    </Dialog>
  );
}

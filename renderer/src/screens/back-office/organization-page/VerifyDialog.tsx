// Recording or withdrawing an organization's business verification, after a review of what changes.
import { useState } from 'react';
import { Dialog } from '@renderer/components/Dialog';
import { Facts } from '@renderer/components/DefinitionList';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { WriteActions } from '../DialogActions';

export function VerifyDialog({
  organization,
  onClose,
}: {
  organization: { id: string; name: string; verified: boolean };
  onClose: () => void;
}) {
  const action = useBackOfficeAction('operatorSetOrganizationVerified');
  // What the user reviewed: the page behind reloads after the write, the dialog keeps the change it made.
  const [verified] = useState(organization.verified);
  const next = !verified;
  return (
    <Dialog
      title={
        action.state.phase === 'done'
          ? `Verification ${next ? 'recorded' : 'withdrawn'}`
          : `${next ? 'Record' : 'Withdraw'} the verification`
      }
      onClose={onClose}
    >
      <div className="form">
        <p>{action.state.phase === 'done' ? 'What changed:' : 'What changes:'}</p>
        <Facts
          items={[
            ['Organization', organization.name],
            ['Business verification', `${verified ? 'Verified' : 'Not verified'} → ${next ? 'Verified' : 'Not verified'}`],
            [
              'Effect',
              next
                ? 'Its projects can be issued credits, and public projects appear in the public interface.'
                : 'No more issuance for its projects, and its projects leave the public interface.',
            ],
          ]}
        />
        <WriteActions
          action={action}
          onClose={onClose}
          onConfirm={() => void action.run({ params: { organizationId: organization.id }, body: { verified: next } })}
        >
          {next ? 'Record verification' : 'Withdraw verification'}
        </WriteActions>
      </div>
    </Dialog>
  );
}

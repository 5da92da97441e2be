// Back office: Operators (administrators). The registry's operator accounts with their roles; create
// one from its public key (PEM, pasted), disable or enable one, each after a review. A role that may
// not list operators sees why instead of the list.
import { useState } from 'react';
import type { BackOfficeData } from '@shared/desk/back-office';
import { OPERATOR_ROLES, type OperatorRole } from '@shared/registry/vocabulary';
import { formatDateTime, humanize } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/desk';
import { useBackOffice, useCan } from '@renderer/stores/backOffice';
import { Dialog } from '@renderer/components/Dialog';
import { Facts } from '@renderer/components/DefinitionList';
import { ColumnHeadsWithActions } from '@renderer/components/ColumnHeads';
import { Field } from '@renderer/components/Field';
import type { FormProblem } from '@renderer/components/FieldProblems';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { WriteActions } from './DialogActions';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { BackOfficePage } from './BackOfficePage';
import { ReviewedWriteDialog, type ReviewCheck } from './ReviewedWriteDialog';
import { publicKeyProblem } from '@renderer/lib/rsaPublicKey';
import { PublicKeyFileField } from './PublicKeyFileField';

type Operator = BackOfficeData<'operatorListOperators'>['operators'][number];

const ROLE_TEXT: Record<OperatorRole, string> = {
  viewer: 'reads everything, the audit log included; changes nothing',
  manager: 'also every back-office write: organizations, projects, issuance, transfers, cancellations, retirements',
  administrator: 'also apps, installations, examiner rights and operator accounts',
};

export function OperatorsScreen() {
  const [creating, setCreating] = useState(false);
  const [toggling, setToggling] = useState<Operator | null>(null);
  return (
    <BackOfficePage
      title="Operators"
      actions={
        <GatedButton can="operatorCreateOperator" className="button button-primary" onClick={() => setCreating(true)}>
          New operator
        </GatedButton>
      }
    >
      <OperatorList onToggle={setToggling} />
      {creating && <CreateOperatorDialog onClose={() => setCreating(false)} />}
      {toggling && <ActiveDialog operator={toggling} onClose={() => setToggling(null)} />}
    </BackOfficePage>
  );
}

function OperatorList({ onToggle }: { onToggle: (operator: Operator) => void }) {
  const can = useCan('operatorListOperators');
  const self = useBackOffice((s) => s.session?.operator?.id);
  const { data, error, loading, reload } = useBackOfficeRead('operatorListOperators', {}, { enabled: can.allowed });
  if (!can.allowed) return <EmptyState title="Operator accounts are for administrators">{can.reason}</EmptyState>;
  if (loading && !data) return <Loading label="Loading operator accounts…" />;
  if (!data) return <ErrorMessage error={error ? describeError(error) : null} onRetry={reload} />;
  return (
    <table className="simple-table" aria-label="Operator accounts">
      <ColumnHeadsWithActions names={['Name', 'Role', 'Status', 'Created', 'Id']} />
      <tbody>
        {data.data.operators.map((o) => (
          <tr key={o.id}>
            <td>
              {o.name}
              {o.id === self && <span className="muted"> (you)</span>}
            </td>
            <td>{humanize(o.role)}</td>
            <td>
              <StatusBadge value={o.active ? 'validated' : 'withdrawn'} label={o.active ? 'Active' : 'Disabled'} />
            </td>
            <td>{formatDateTime(o.createdAt)}</td>
            <td className="mono">{o.id}</td>
            <td>
              <GatedButton
                can="operatorSetOperatorActive"
                className="button button-small"
                showReason={false}
                disabledReason={o.id === self ? 'The account the desk acts as cannot disable itself here' : null}
                aria-label={`${o.active ? 'Disable' : 'Enable'} ${o.name}`}
                onClick={() => onToggle(o)}
              >
                {o.active ? 'Disable' : 'Enable'}
              </GatedButton>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CreateOperatorDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
  const [publicKeyPem, setPublicKeyPem] = useState('');
  const action = useBackOfficeAction('operatorCreateOperator');
  const body = { name: name.trim(), role, publicKeyPem: publicKeyPem.trim() + '\n' };
  return (
    <ReviewedWriteDialog
      title="New operator"
      reviewTitle="Review the new operator"
      doneTitle="Operator created"
      action={action}
      onClose={onClose}
      check={(): ReviewCheck<typeof body> => {
        const problems: FormProblem[] = [];
        if (body.name === '') problems.push({ field: 'name', message: 'Enter the operator’s name.' });
        if (!/^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(publicKeyPem.trim()))
          problems.push({
            field: 'publicKeyPem',
            message: 'Paste the RSA public key in PEM form (-----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----).',
          });
        // A key the registry would refuse (not RSA, under 2048 bits) is said here, not after "Create".
        else {
          const keyProblem = publicKeyProblem(publicKeyPem);
          if (keyProblem !== null) problems.push({ field: 'publicKeyPem', message: keyProblem });
        }
        return problems.length > 0 ? { ok: false, problems } : { ok: true, reviewed: body };
      }}
      fields={
        <>
          <Field label="Name" name="name">
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
          </Field>
          <Field label="Role" hint={ROLE_TEXT[role]}>
            <select value={role} onChange={(e) => setRole(e.target.value as OperatorRole)}>
              {OPERATOR_ROLES.map((r) => (
                <option key={r} value={r}>
                  {humanize(r)}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Public key (PEM)"
            name="publicKeyPem"
            hint="The operator keeps the private key; the registry stores only this public key (RSA, 2048 bits or more)."
          >
            <textarea className="mono" rows={6} value={publicKeyPem} onChange={(e) => setPublicKeyPem(e.target.value)} />
          </Field>
          <PublicKeyFileField onKey={setPublicKeyPem} />
        </>
      }
      review={(reviewed, done) => (
        <>
          <p>
            {done
              ? 'The registry created this operator account, active at once:'
              : 'The registry will create this operator account, active at once:'}
          </p>
          <Facts
            items={[
              ['Name', reviewed.name],
              ['Role', `${humanize(reviewed.role)}: ${ROLE_TEXT[reviewed.role]}`],
              ['Public key', <span className="mono">{reviewed.publicKeyPem.trim().split('\n').slice(1, 2).join('')}…</span>],
            ]}
          />
        </>
      )}
      confirm="Create operator"
      request={(reviewed) => ({ body: reviewed })}
      outcome={(data) => (
        <p>
          Its id, for the operator’s desk: <span className="mono">{data.operator.id}</span>
        </p>
      )}
    />
  );
}

export function ActiveDialog({ operator, onClose }: { operator: Operator; onClose: () => void }) {
  const action = useBackOfficeAction('operatorSetOperatorActive');
  const [active] = useState(operator.active);
  const next = !active;
  return (
    <Dialog
      title={
        action.state.phase === 'done'
          ? `${operator.name} ${next ? 'enabled' : 'disabled'}`
          : `${next ? 'Enable' : 'Disable'} ${operator.name}`
      }
      onClose={onClose}
    >
      <div className="form">
        <Facts
          items={[
            ['Operator', `${operator.name} (${humanize(operator.role)})`],
            ['Status', `${active ? 'Active' : 'Disabled'} → ${next ? 'Active' : 'Disabled'}`],
            ['Effect', next ? 'Its key can get tokens again.' : 'Its tokens stop at once; it can no longer sign in.'],
          ]}
        />
        <WriteActions
          action={action}
          onClose={onClose}
          onConfirm={() => void action.run({ params: { operatorId: operator.id }, body: { active: next } })}
        >
          {next ? 'Enable' : 'Disable'}
        </WriteActions>
      </div>
    </Dialog>
  );
}

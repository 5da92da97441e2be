// Back office, Apps and installations: register an app with its RSA public key (PEM). Reviewed
// before it is sent, as every other back-office write: it once registered at the first click, said
// its problems one at a time under the form, and let a key the registry refuses (under 2048 bits,
// not RSA) through to the registry.
import { useState } from 'react';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { Facts } from '@renderer/components/DefinitionList';
import { Field } from '@renderer/components/Field';
import type { FormProblem } from '@renderer/components/FieldProblems';
import { publicKeyProblem } from '@renderer/lib/rsaPublicKey';
import { ReviewedWriteDialog, type ReviewCheck } from './ReviewedWriteDialog';

const EXAMINER_TEXT = 'it may read projects’ internal views';

export function RegisterAppDialog({ onClose }: { onClose: () => void }) {
  const action = useBackOfficeAction('operatorCreateApp');
  const [name, setName] = useState('');
  const [nameId, setNameId] = useState('');
  const [publicKeyPem, setPublicKeyPem] = useState('');
  const [examinerRead, setExaminerRead] = useState(false);
  const body = { name: name.trim(), ...(nameId.trim() ? { nameId: nameId.trim() } : {}), publicKeyPem: publicKeyPem.trim(), examinerRead };
  return (
    <ReviewedWriteDialog
      title="Register an app"
      reviewTitle="Review the new app"
      doneTitle="App registered"
      action={action}
      onClose={onClose}
      check={(): ReviewCheck<typeof body> => {
        const problems: FormProblem[] = [];
        if (body.name === '') problems.push({ field: 'name', message: 'Give the app a name.' });
        // The registry's own rule for a short name: 2 to 63 characters, starting with a letter or digit.
        if (body.nameId !== undefined && !/^[a-z0-9][a-z0-9-]{1,62}$/.test(body.nameId))
          problems.push({
            field: 'nameId',
            message: 'Use 2 to 63 lowercase letters, digits and dashes, starting with a letter or digit, or leave it empty.',
          });
        if (!/^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(body.publicKeyPem))
          problems.push({
            field: 'publicKeyPem',
            message: 'Paste the app’s RSA public key in PEM form (-----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----).',
          });
        else {
          const keyProblem = publicKeyProblem(body.publicKeyPem);
          if (keyProblem !== null) problems.push({ field: 'publicKeyPem', message: keyProblem });
        }
        return problems.length > 0 ? { ok: false, problems } : { ok: true, reviewed: body };
      }}
      fields={
        <>
          <Field label="App name" name="name">
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
          </Field>
          <Field label="Short name (optional)" name="nameId" hint="Lowercase letters, digits and dashes; made from the name when empty.">
            <input value={nameId} onChange={(e) => setNameId(e.target.value)} maxLength={63} />
          </Field>
          <Field
            label="Public key (PEM)"
            name="publicKeyPem"
            hint="The app keeps the private key and signs its sign-ins with it; the registry stores only this public key (RSA, 2048 bits or more)."
          >
            <textarea className="mono" rows={7} value={publicKeyPem} onChange={(e) => setPublicKeyPem(e.target.value)} />
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={examinerRead} onChange={(e) => setExaminerRead(e.target.checked)} />
            <span>Grant examiner rights (internal project views)</span>
          </label>
        </>
      }
      review={(reviewed, done) => (
        <>
          <p>{done ? 'The registry registered this app:' : 'The registry will register this app:'}</p>
          <Facts
            items={[
              ['Name', reviewed.name],
              ['Short name', reviewed.nameId ?? 'made from the name'],
              ['Public key', <span className="mono">{reviewed.publicKeyPem.split('\n').slice(1, 2).join('')}…</span>],
              ['Examiner rights', reviewed.examinerRead ? `granted: ${EXAMINER_TEXT}` : 'not granted'],
            ]}
          />
          {!done && <p>It can be installed for organizations once registered.</p>}
        </>
      )}
      confirm="Register app"
      request={(reviewed) => ({ body: reviewed })}
      outcome={(data) => (
        <p>
          Short name <span className="mono">{data.nameId}</span>; its id, for the app’s configuration:{' '}
          <span className="mono">{data.id}</span>
        </p>
      )}
    />
  );
}

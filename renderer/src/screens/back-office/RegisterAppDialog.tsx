// Back office, Apps and installations: register an app with its RSA public key (PEM).
import { useState } from 'react';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { WriteActions } from './DialogActions';

export function RegisterAppDialog({ onClose }: { onClose: () => void }) {
  const action = useBackOfficeAction('operatorCreateApp');
  const [name, setName] = useState('');
  const [nameId, setNameId] = useState('');
  const [publicKeyPem, setPublicKeyPem] = useState('');
  const [examinerRead, setExaminerRead] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!name.trim()) return setError('Give the app a name.');
    if (!/-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----/.test(publicKeyPem))
      return setError('Paste the app’s RSA public key in PEM form (-----BEGIN PUBLIC KEY----- …).');
    setError(null);
    await action.run({
      body: { name: name.trim(), ...(nameId.trim() ? { nameId: nameId.trim() } : {}), publicKeyPem: publicKeyPem.trim(), examinerRead },
    });
  };
  return (
    <Dialog title="Register an app" onClose={onClose} wide>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Field label="App name">
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
        </Field>
        <Field label="Short name (optional)" hint="Lowercase letters, digits and dashes; made from the name when empty.">
          <input value={nameId} onChange={(e) => setNameId(e.target.value)} maxLength={63} />
        </Field>
        <Field label="Public key (PEM)" hint="The app's RSA public key (2048 bits or more); its JWTs are checked against it.">
          <textarea className="mono" rows={7} value={publicKeyPem} onChange={(e) => setPublicKeyPem(e.target.value)} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" checked={examinerRead} onChange={(e) => setExaminerRead(e.target.checked)} />
          <span>Grant examiner rights (internal project views)</span>
        </label>
        {error && (
          <p className="inline-error" role="alert">
            {error}
          </p>
        )}
        <WriteActions action={action} onClose={onClose}>
          Register app
        </WriteActions>
      </form>
    </Dialog>
  );
}

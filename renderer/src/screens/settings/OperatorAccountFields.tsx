// The optional operator account of a remote registry, for the back office: its id and its key file
// (read like the app's key; a read still under way is handed to `onReading`).
import type { PickedKey } from '@shared/desk/api';
import { Field } from '@renderer/components/Field';
import { KeyFileInput } from './KeyFileInput';

export function OperatorAccountFields({
  operatorId,
  onOperatorId,
  onKey,
  onReading,
}: {
  operatorId: string;
  onOperatorId: (id: string) => void;
  onKey: (key: PickedKey | null) => void;
  onReading: (read: Promise<void>) => void;
}) {
  return (
    <fieldset className="fieldset">
      <legend>Operator account (optional, for the back office)</legend>
      <Field
        label="Operator id"
        hint="The id of your operator account on this registry; its role decides what the back office lets you do."
      >
        <input className="mono" value={operatorId} onChange={(e) => onOperatorId(e.target.value)} />
      </Field>
      <KeyFileInput
        label="Operator key file"
        hint="The operator account's RSA private key, a .pem file starting with -----BEGIN PRIVATE KEY-----; for a demo registry, its demo-credentials.json (the key of the operator id above)."
        onKey={onKey}
        onReading={onReading}
      />
    </fieldset>
  );
}

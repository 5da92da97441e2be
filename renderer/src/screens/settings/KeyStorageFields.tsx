// Where the keys will be kept: said when a keychain is available (keytar or Electron's safeStorage);
// without one, the offer of a passphrase-encrypted file, which the user must accept with a passphrase.
import { Field } from '@renderer/components/Field';

export function KeyStorageFields({
  keychainReason,
  needsFile,
  passphrase,
  onPassphrase,
  confirmed,
  onConfirmed,
}: {
  /** The desk's sentence on the keychain (where keys go, or why there is none). */
  keychainReason: string | undefined;
  needsFile: boolean;
  passphrase: string;
  onPassphrase: (passphrase: string) => void;
  confirmed: boolean;
  onConfirmed: (confirmed: boolean) => void;
}) {
  if (!needsFile) return keychainReason ? <p className="hint">{keychainReason}</p> : null;
  return (
    <>
      <p className="notice">
        {/* The reason is already the sentence naming the missing keychain and its cause: said once. */}
        {keychainReason?.trim() || 'No system keychain is available.'} The key can instead be stored in a file encrypted with a passphrase
        you enter each time the desk starts.
      </p>
      <Field label="Passphrase for the key file">
        <input type="password" autoComplete="new-password" value={passphrase} onChange={(e) => onPassphrase(e.target.value)} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={confirmed} onChange={(e) => onConfirmed(e.target.checked)} />
        Store the key in a passphrase-encrypted file
      </label>
    </>
  );
}

// Picking an app's private key file (PEM). The key is read in the renderer and handed to the desk,
// which keeps it in the OS keychain (or an encrypted file); it is never shown or stored here.
import { useState } from 'react';
import { readFileText } from '../../lib/files';
import { Field } from '../../components/Field';

export function KeyFileInput({ label, onKey }: { label: string; onKey: (pem: string | null) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  async function pick(file: File | undefined) {
    setProblem(null);
    if (!file) return onKey(null);
    try {
      const text = await readFileText(file, 20_000);
      if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(text)) throw new Error(`${file.name} does not contain a PEM private key.`);
      onKey(text);
    } catch (error) {
      onKey(null);
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }
  return (
    <Field label={label} hint="The app's RSA private key, a .pem file starting with -----BEGIN PRIVATE KEY-----." error={problem}>
      <input type="file" accept=".pem,.key,application/x-pem-file,text/plain" onChange={(e) => void pick(e.target.files?.[0])} />
    </Field>
  );
}

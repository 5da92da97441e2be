// A new operator's public key from a file (the .pem an operator sends), as well as pasted. A public
// key is no secret, so the page reads the file itself; a file holding a private key is refused and
// its text is neither shown nor kept (the private key stays with the operator).
import { useState } from 'react';
import { Field } from '@renderer/components/Field';

/** More than any PEM public key; a bigger file is not one. */
const MAX_BYTES = 20_000;

export function PublicKeyFileField({ onKey }: { onKey: (pem: string) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [read, setRead] = useState<string | null>(null);
  const pick = async (file: File | undefined) => {
    setRead(null);
    if (!file) return setProblem(null);
    if (file.size > MAX_BYTES) return setProblem(`${file.name} is too large for a public key (at most 20 KB).`);
    const text = await file.text();
    if (/PRIVATE KEY/.test(text))
      return setProblem(`${file.name} holds a private key: choose the public key instead. The private key stays with the operator.`);
    if (!/-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----/.test(text))
      return setProblem(`${file.name} holds no public key in PEM form (-----BEGIN PUBLIC KEY----- …).`);
    setProblem(null);
    setRead(file.name);
    onKey(text.trim());
  };
  return (
    <Field
      label="Or choose the public key file"
      hint={read ? `Read from ${read}: the key is in the field above.` : 'A .pem file with the operator’s RSA public key.'}
      error={problem}
    >
      <input type="file" accept=".pem,.pub,.txt,application/x-pem-file" onChange={(e) => void pick(e.target.files?.[0])} />
    </Field>
  );
}

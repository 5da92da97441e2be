// Picking an app's private key file (PEM). The page never reads the key: in the desk window the
// main process shows a native open dialog and reads the file; in the browser the chosen file is
// sent to the web host unread. Either way the desk keeps the key and the page gets only a handle.
import { useEffect, useState } from 'react';
import type { PickedKey } from '../../../../shared/desk/api';
import { bridgeHost, importKeyFile } from '../../lib/desk';
import { Field } from '../../components/Field';

export function KeyFileInput({
  label,
  onKey,
  onBusy,
}: {
  label: string;
  onKey: (key: PickedKey | null) => void;
  /** True while the desk reads the chosen file (the form waits for the handle). */
  onBusy?: (busy: boolean) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [host, setHost] = useState<'electron' | 'web' | null>(null);
  useEffect(() => {
    void bridgeHost().then(setHost);
  }, []);

  async function pick(file?: File) {
    setProblem(null);
    onBusy?.(true);
    try {
      const key = await importKeyFile(file);
      setChosen(key?.fileName ?? null);
      onKey(key);
    } catch (error) {
      setChosen(null);
      onKey(null);
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      onBusy?.(false);
    }
  }
  const hint = "The app's RSA private key, a .pem file starting with -----BEGIN PRIVATE KEY-----.";
  return (
    <>
      <Field label={label} hint={hint} error={problem}>
        {host === 'electron' ? (
          <button type="button" className="button" onClick={() => void pick()}>
            Choose key file…
          </button>
        ) : (
          <input
            type="file"
            accept=".pem,.key,application/x-pem-file,text/plain"
            onChange={(e) => {
              const file = e.target.files?.[0];
              // The page lets go of the file once it is handed over; the name stays shown beside.
              e.target.value = '';
              if (file) void pick(file);
              else onKey(null);
            }}
          />
        )}
      </Field>
      {chosen && (
        <p className="hint">
          Chosen key file: <span className="mono">{chosen}</span>
        </p>
      )}
    </>
  );
}

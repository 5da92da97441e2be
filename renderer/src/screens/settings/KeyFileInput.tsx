// Picking a private key file (PEM: the app's, or an operator account's). The page never reads the
// key: in the desk window the main process shows a native open dialog and reads the file; in the
// browser the chosen file is sent to the web host unread. Either way the desk keeps the key and the
// page gets only a handle.
import { useEffect, useRef, useState } from 'react';
import type { PickedKey } from '@shared/desk/api';
import { bridgeHost, importKeyFile } from '@renderer/lib/desk';
import { Field } from '@renderer/components/Field';

const APP_KEY_HINT =
  "The app's RSA private key, a .pem file starting with -----BEGIN PRIVATE KEY-----; for a demo registry, its demo-credentials.json.";

export function KeyFileInput({
  label,
  hint = APP_KEY_HINT,
  onKey,
  onReading,
}: {
  label: string;
  hint?: string;
  onKey: (key: PickedKey | null) => void;
  /** Each read of a chosen file, settled once `onKey` has had its outcome (a form can wait for it). */
  onReading?: (read: Promise<void>) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  // Each pick is numbered: when a second file is chosen before the first was read, only the last
  // choice may set the key (reads can finish in either order).
  const picks = useRef(0);
  const [chosen, setChosen] = useState<string | null>(null);
  // The file's line is drawn when it is chosen, not when the desk has read it: appearing later, it
  // moved what was below (Add connection) under a pointer already on its way there.
  const [reading, setReading] = useState(false);
  const [host, setHost] = useState<'electron' | 'web' | null>(null);
  useEffect(() => {
    void bridgeHost().then(setHost);
  }, []);

  function pick(file?: File) {
    if (file) setChosen(file.name);
    setReading(true);
    const read = readKey(++picks.current, file);
    onReading?.(read);
    return read;
  }
  async function readKey(choice: number, file?: File) {
    setProblem(null);
    try {
      const key = await importKeyFile(file);
      if (choice !== picks.current) return;
      setReading(false);
      setChosen(key?.fileName ?? null);
      onKey(key);
    } catch (error) {
      if (choice !== picks.current) return;
      setReading(false);
      setChosen(null);
      onKey(null);
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }
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
            accept=".pem,.key,.json,application/x-pem-file,application/json,text/plain"
            onChange={(e) => {
              const file = e.target.files?.[0];
              // The page lets go of the file once it is handed over; the name stays shown beside.
              e.target.value = '';
              if (file) void pick(file);
              else {
                // A cancelled choice also supersedes a read still under way.
                picks.current++;
                setReading(false);
                setChosen(null);
                onKey(null);
              }
            }}
          />
        )}
      </Field>
      {chosen && (
        <p className="hint">
          {reading ? 'Reading key file: ' : 'Chosen key file: '}
          <span className="mono">{chosen}</span>
        </p>
      )}
    </>
  );
}

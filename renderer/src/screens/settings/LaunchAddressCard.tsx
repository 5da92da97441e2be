// The browser desk's way into a second browser or profile: a launch address works once, so this
// asks the web host for a new one (only a page holding the desk's session may) and shows it to copy.
import { useEffect, useState } from 'react';
import { bridgeHost, newLaunchAddress } from '@renderer/lib/desk';
import { ErrorMessage } from '@renderer/components/feedback';
import { useAction } from '@renderer/components/useAction';

export function LaunchAddressCard() {
  const [host, setHost] = useState<'electron' | 'web' | null>(null);
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    void bridgeHost().then(setHost);
  }, []);
  const ask = useAction(async () => setAddress(await newLaunchAddress()));
  if (host !== 'web') return null;
  return (
    <section className="card" aria-label="Open in another browser">
      <h2>Open in another browser</h2>
      <p className="muted">
        Each launch address opens the desk once, in one browser. For another browser or profile, get a new one here (or press Enter in the
        terminal where the desk runs) and open it there.
      </p>
      <div className="actions">
        <button type="button" className="button" aria-disabled={ask.busy || undefined} onClick={() => void ask.run()}>
          New launch address
        </button>
      </div>
      {address && (
        <p role="status">
          Works once:{' '}
          <output className="mono" aria-label="Launch address">
            {address}
          </output>
        </p>
      )}
      <ErrorMessage error={ask.error ? `No new launch address: ${ask.error}` : null} />
    </section>
  );
}

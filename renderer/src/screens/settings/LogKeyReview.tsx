// The registry's log key as the desk is about to pin it (docs/desk.md, "The registry's log key"):
// its fingerprint to compare with one the registry's operator gave some other way, the whole key,
// and a field to paste a key obtained out of band; a pasted key that is not the served one is said
// at once, and the caller refuses to go on (keyMismatch).
import type { LogKey } from '@shared/desk/api';
import { Field } from '@renderer/components/Field';

/** Whether a pasted key (blank: none pasted) disagrees with the key served. */
export const keyMismatch = (pasted: string, served: LogKey | null) => pasted.trim() !== '' && pasted.trim() !== served?.key;

export function LogKeyReview({
  served,
  pinned,
  pasted,
  onPasted,
}: {
  served: LogKey | null;
  /** The key pinned before (starting over), to say whether the registry now serves another. */
  pinned?: LogKey | null;
  pasted: string;
  onPasted: (text: string) => void;
}) {
  const mismatch = keyMismatch(pasted, served);
  return (
    <fieldset className="fieldset" aria-label="The registry's log key">
      <legend>The registry's log key</legend>
      {served ? (
        <>
          <p>
            This registry signs its history with the key whose fingerprint is <strong className="mono">{served.fingerprint}</strong>. The
            desk pins it: from now on, a history signed with any other key is refused.
          </p>
          <p className="hint mono">{served.key}</p>
          {pinned !== undefined && pinned?.key !== served.key && (
            <p className="notice">
              {pinned
                ? `This is not the key pinned before (fingerprint ${pinned.fingerprint}): the registry now signs with another key.`
                : 'No key was pinned before.'}
            </p>
          )}
        </>
      ) : (
        <p className="notice">This registry publishes no transparency log: the desk cannot verify its history.</p>
      )}
      <Field
        label="Key obtained another way (optional)"
        hint="If the registry's operator gave you its log key (by letter, on its website), paste it: the desk compares it with the key above."
        error={mismatch ? 'The key you pasted is not the key this registry serves. Do not go on until you know why.' : null}
      >
        <input className="mono" value={pasted} onChange={(e) => onPasted(e.target.value)} />
      </Field>
      {!mismatch && pasted.trim() !== '' && <p className="muted">The key you pasted is the key this registry serves.</p>}
    </fieldset>
  );
}

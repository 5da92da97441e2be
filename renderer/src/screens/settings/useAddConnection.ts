// The state of adding a remote registry: what was typed, the key files read (and reads still under
// way), the log key fetched for review, and the add itself (first the review, then the add).
import { useRef, useState } from 'react';
import { isAllowedRegistryUrl, REGISTRY_URL_RULE, type LogKey, type PickedKey } from '@shared/desk/api';
import { desk } from '@renderer/lib/desk';
import { useConnections } from '@renderer/stores/connections';
import { useAction } from '@renderer/components/useAction';
import { useMounted } from '@renderer/components/useMounted';
import { keyMismatch } from './LogKeyReview';

/** `onDone` gets the name of the connection added. */
export function useAddConnection(onDone: (added?: string) => void) {
  const keychain = useConnections((s) => s.list?.keychain);
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('https://');
  const [appId, setAppId] = useState('');
  const [operatorId, setOperatorId] = useState('');
  // The handles of the key files read so far (only Add uses them), and the reads still under way:
  // Add pressed during a read waits for it, then checks the keys as they are now (pressed early,
  // it once found no operator key because a read had not ended).
  const keys = useRef<{ app: PickedKey | null; operator: PickedKey | null }>({ app: null, operator: null });
  const reads = useRef(new Set<Promise<void>>());
  const [waitingForKeys, setWaitingForKeys] = useState(false);
  const trackRead = (read: Promise<void>) => {
    reads.current.add(read);
    void read.finally(() => reads.current.delete(read));
  };
  const [passphrase, setPassphrase] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  // The log key fetched for review, for the address it was fetched from (another address: review again).
  const [review, setReview] = useState<{ baseUrl: string; logKey: LogKey | null } | null>(null);
  const [pastedKey, setPastedKey] = useState('');
  const reviewed = review !== null && review.baseUrl === baseUrl.trim() ? review : null;
  const needsFile = keychain ? !keychain.available : false;
  const mounted = useMounted();

  const add = useAction(async () => {
    if (reads.current.size > 0) {
      setWaitingForKeys(true);
      try {
        while (reads.current.size > 0) await Promise.all([...reads.current]);
      } finally {
        setWaitingForKeys(false);
      }
      // Cancelled while the key files were read: nothing was sent, nothing is.
      if (!mounted.current) return;
    }
    const { app: key, operator: operatorKey } = keys.current;
    if (!isAllowedRegistryUrl(baseUrl.trim())) throw new Error(REGISTRY_URL_RULE);
    if (!key) throw new Error('Choose the private key file of the app.');
    if (operatorId.trim() !== '' && !operatorKey)
      throw new Error("Choose the operator account's private key file, or leave the operator id empty.");
    if (operatorId.trim() === '' && operatorKey) throw new Error('Enter the operator id that goes with the operator key file.');
    if (needsFile && (!confirmed || passphrase.length < 8))
      throw new Error('Without a keychain, the key is stored encrypted with a passphrase of at least 8 characters: enter one and confirm.');
    if (!reviewed) {
      // first the registry's log key, for the person to review; nothing is stored yet
      const { logKey } = await desk('connections.logKey', { baseUrl: baseUrl.trim() });
      if (mounted.current) setReview({ baseUrl: baseUrl.trim(), logKey });
      return;
    }
    if (keyMismatch(pastedKey, reviewed.logKey)) throw new Error('the key you pasted is not the key this registry serves.');
    await desk('connections.addRemote', {
      logKey: reviewed.logKey?.key ?? null,
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      appId: appId.trim(),
      keyHandle: key.handle,
      ...(operatorKey && operatorId.trim() !== '' ? { operator: { id: operatorId.trim(), keyHandle: operatorKey.handle } } : {}),
      ...(needsFile ? { encryptedFileFallback: { passphrase, userConfirmed: true as const } } : {}),
    });
    await useConnections.getState().load();
    if (mounted.current) onDone(name.trim());
  });
  // The desk is adding the connection (a call that cannot be taken back).
  const connecting = add.busy && !waitingForKeys;
  return {
    keychain,
    needsFile,
    name,
    setName,
    baseUrl,
    setBaseUrl,
    appId,
    setAppId,
    operatorId,
    setOperatorId,
    passphrase,
    setPassphrase,
    confirmed,
    setConfirmed,
    pastedKey,
    setPastedKey,
    reviewed,
    /** Keeps the key file read for the app's key or the operator's (null: none, or it could not be read). */
    pickKey: (which: 'app' | 'operator', key: PickedKey | null) => {
      keys.current[which] = key;
    },
    trackRead,
    add,
    waitingForKeys,
    connecting,
  };
}

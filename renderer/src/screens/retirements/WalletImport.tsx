// Opening the wallet that signs a finalization: an encrypted JSON keystore with its password, or a
// private key. Decryption runs in the wallet worker (see wallet.worker.ts); this form never holds
// the key after handing it over, and it can keep only the encrypted keystore for the session.
import { useState } from 'react';
import { keystoreAddress, useWallet } from '../../stores/wallet';
import { readFileText } from '../../lib/files';
import { Field } from '../../components/Field';
import { ErrorMessage } from '../../components/feedback';
import { useAction } from '../../components/useAction';

type Method = 'keystore' | 'privateKey';

function DecryptProgress() {
  const progress = useWallet((s) => s.progress);
  if (progress === null) return null;
  return (
    <div className="progress-line">
      <progress max={1} value={progress} aria-label="Opening the wallet" />
      <span>Opening the wallet… {Math.round(progress * 100)}%</span>
    </div>
  );
}

function RememberedWallet({ keystoreJson, onUseAnother }: { keystoreJson: string; onUseAnother: () => void }) {
  const unlockKeystore = useWallet((s) => s.unlockKeystore);
  const [password, setPassword] = useState('');
  const unlock = useAction(() => unlockKeystore(keystoreJson, password, true));
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void unlock.run();
      }}
    >
      <p>
        Wallet <span className="mono">{keystoreAddress(keystoreJson)}</span> is kept (encrypted) for this session.
      </p>
      <Field label="Keystore password">
        <input type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <DecryptProgress />
      <ErrorMessage error={unlock.error} />
      <div className="actions">
        <button type="button" className="button" onClick={onUseAnother}>
          Use another wallet
        </button>
        <button type="submit" className="button button-primary" disabled={unlock.busy || !password}>
          {unlock.busy ? 'Opening…' : 'Open wallet'}
        </button>
      </div>
    </form>
  );
}

export function WalletImport() {
  const remembered = useWallet((s) => s.rememberedKeystore);
  const unlockKeystore = useWallet((s) => s.unlockKeystore);
  const importPrivateKey = useWallet((s) => s.importPrivateKey);
  const [useRemembered, setUseRemembered] = useState(true);
  const [method, setMethod] = useState<Method>('keystore');
  const [keystore, setKeystore] = useState<{ name: string; json: string } | null>(null);
  const [keystoreError, setKeystoreError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [rememberPassword, setRememberPassword] = useState('');

  const open = useAction(async () => {
    if (method === 'keystore') {
      if (!keystore) throw new Error('Choose the keystore file first.');
      await unlockKeystore(keystore.json, password, remember);
    } else {
      if (remember && rememberPassword.length < 8)
        throw new Error('To keep the wallet for this session, choose a password of at least 8 characters to encrypt it.');
      await importPrivateKey(privateKey, remember ? { password: rememberPassword } : null);
    }
    // Do not keep the secret in the form once the worker has it.
    setPrivateKey('');
    setPassword('');
    setRememberPassword('');
  });

  async function pickKeystore(file: File | undefined) {
    setKeystoreError(null);
    if (!file) return setKeystore(null);
    try {
      const json = await readFileText(file);
      if (!keystoreAddress(json)) throw new Error(`${file.name} is not a wallet keystore (no address in it).`);
      setKeystore({ name: file.name, json });
    } catch (error) {
      setKeystore(null);
      setKeystoreError(error instanceof Error ? error.message : String(error));
    }
  }

  if (remembered && useRemembered) return <RememberedWallet keystoreJson={remembered} onUseAnother={() => setUseRemembered(false)} />;

  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void open.run();
      }}
    >
      <fieldset className="segmented">
        <legend>Wallet</legend>
        <label className={method === 'keystore' ? 'segment segment-on' : 'segment'}>
          <input type="radio" name="wallet-method" checked={method === 'keystore'} onChange={() => setMethod('keystore')} />
          Keystore file
        </label>
        <label className={method === 'privateKey' ? 'segment segment-on' : 'segment'}>
          <input type="radio" name="wallet-method" checked={method === 'privateKey'} onChange={() => setMethod('privateKey')} />
          Private key
        </label>
      </fieldset>
      {method === 'keystore' ? (
        <>
          <Field label="Keystore file (JSON)" hint="An encrypted JSON keystore (version 3), as wallets export it." error={keystoreError}>
            <input type="file" accept=".json,application/json" onChange={(e) => void pickKeystore(e.target.files?.[0])} />
          </Field>
          <Field label="Keystore password">
            <input type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
        </>
      ) : (
        <Field label="Private key (hex)" hint="64 hexadecimal characters. It stays on this computer: only signatures leave it.">
          <input type="password" autoComplete="off" spellCheck={false} value={privateKey} onChange={(e) => setPrivateKey(e.target.value)} />
        </Field>
      )}
      <label className="checkbox">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        Keep this wallet for this session (only its encrypted keystore is kept, until the window closes)
      </label>
      {remember && method === 'privateKey' && (
        <Field label="Password to encrypt the kept wallet">
          <input
            type="password"
            autoComplete="new-password"
            value={rememberPassword}
            onChange={(e) => setRememberPassword(e.target.value)}
          />
        </Field>
      )}
      <DecryptProgress />
      <ErrorMessage error={open.error} />
      <div className="actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={open.busy || (method === 'keystore' ? !keystore || !password : !privateKey)}
        >
          {open.busy ? 'Opening…' : 'Open wallet'}
        </button>
      </div>
    </form>
  );
}

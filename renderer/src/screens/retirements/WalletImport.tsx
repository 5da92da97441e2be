// Opening the wallet that signs a finalization: an encrypted JSON keystore with its password, or a
// private key. Decryption runs in the wallet worker (see wallet.worker.ts). A typed hex key is read
// from its input only on submit and goes straight to the worker: it is never React state, and the
// input is emptied at once. Only an encrypted keystore can be kept for the session. In the demo the
// desk offers the demo wallet that made the retirement, and the keystore input also takes the demo's
// demo-credentials.json (demoWallet.ts).
import { useRef, useState } from 'react';
import { desk } from '@renderer/lib/desk';
import { keystoreAddress, useWallet } from '@renderer/stores/wallet';
import { demoWalletFromCredentials } from './demoWallet';
import { readFileText } from '@renderer/lib/files';
import { Field } from '@renderer/components/Field';
import { ErrorMessage } from '@renderer/components/feedback';
import { useAction } from '@renderer/components/useAction';

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
  // Already kept (re-encrypted by the desk): opening it keeps it as it is.
  const unlock = useAction(() => unlockKeystore(keystoreJson, password, false));
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

/** The demo registry's own wallet for this retirement, one press away. */
function DemoWalletOffer({ retirementId }: { retirementId: string }) {
  const importPrivateKey = useWallet((s) => s.importPrivateKey);
  const use = useAction(async () => {
    const { privateKey } = await desk('retirements.demoWalletKey', { retirementId });
    await importPrivateKey(privateKey, null);
  });
  return (
    <div className="notice" role="group" aria-label="Demo wallet">
      <p>
        This is the demo registry: its wallets&rsquo; keys are in <span className="mono">demo-credentials.json</span>, in the desk&rsquo;s
        data folder under <span className="mono">embedded-registry</span>.
      </p>
      <div className="actions">
        <button type="button" className="button button-primary" aria-disabled={use.busy || undefined} onClick={() => void use.run()}>
          {use.busy ? 'Opening…' : 'Use the demo wallet'}
        </button>
      </div>
      <ErrorMessage error={use.error} />
    </div>
  );
}

/**
 * `retirementId`: the retirement being finalized (a demo-credentials.json picked as the keystore
 * opens the wallet that made it); `demo`: offer the demo wallet (the embedded demo registry).
 */
export function WalletImport({ retirementId, demo = false }: { retirementId: string; demo?: boolean }) {
  const remembered = useWallet((s) => s.rememberedKeystore);
  const unlockKeystore = useWallet((s) => s.unlockKeystore);
  const importPrivateKey = useWallet((s) => s.importPrivateKey);
  const [useRemembered, setUseRemembered] = useState(true);
  const [method, setMethod] = useState<Method>('keystore');
  const [keystore, setKeystore] = useState<{ name: string; json: string } | null>(null);
  const [keystoreError, setKeystoreError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  // The hex key is never state: the input is uncontrolled, read once on submit, then emptied.
  const keyInput = useRef<HTMLInputElement>(null);
  const [hasKey, setHasKey] = useState(false);
  const [remember, setRemember] = useState(false);
  const [rememberPassword, setRememberPassword] = useState('');

  const open = useAction(async () => {
    if (method === 'keystore') {
      if (!keystore) throw new Error('Choose the keystore file first.');
      await unlockKeystore(keystore.json, password, remember);
    } else {
      if (remember && rememberPassword.length < 8)
        throw new Error('To keep the wallet for this session, choose a password of at least 8 characters to encrypt it.');
      const input = keyInput.current;
      const privateKey = input?.value ?? '';
      if (input) input.value = '';
      setHasKey(false);
      await importPrivateKey(privateKey, remember ? { password: rememberPassword } : null);
    }
    // Do not keep the secrets in the form once the worker has them.
    setPassword('');
    setRememberPassword('');
  });

  async function pickKeystore(file: File | undefined) {
    setKeystoreError(null);
    if (!file) return setKeystore(null);
    try {
      const json = await readFileText(file);
      // The demo's credentials file: its wallet for this retirement opens at once (no password).
      const demoWallet = keystoreAddress(json) ? null : demoWalletFromCredentials(json, retirementId);
      if (demoWallet && 'problem' in demoWallet) throw new Error(demoWallet.problem);
      if (demoWallet) return void (await importPrivateKey(demoWallet.privateKey, null));
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
      {demo && <DemoWalletOffer retirementId={retirementId} />}
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
          <Field
            label="Keystore file (JSON)"
            hint="An encrypted JSON keystore (version 3), as wallets export it, or the demo's demo-credentials.json."
            error={keystoreError}
          >
            <input type="file" accept=".json,application/json" onChange={(e) => void pickKeystore(e.target.files?.[0])} />
          </Field>
          <Field label="Keystore password">
            <input type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
        </>
      ) : (
        <Field label="Private key (hex)" hint="64 hexadecimal characters. It stays on this computer: only signatures leave it.">
          <input
            ref={keyInput}
            type="password"
            autoComplete="off"
            spellCheck={false}
            defaultValue=""
            onChange={(e) => setHasKey(e.target.value !== '')}
          />
        </Field>
      )}
      <label className="checkbox">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        Keep this wallet for this session (only an encrypted keystore is kept, re-encrypted with the desk's own settings, until the window
        closes); otherwise it stays in memory only
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
          disabled={open.busy || (method === 'keystore' ? !keystore || !password : !hasKey)}
        >
          {open.busy ? 'Opening…' : 'Open wallet'}
        </button>
      </div>
    </form>
  );
}

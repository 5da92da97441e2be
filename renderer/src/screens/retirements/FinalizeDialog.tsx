// Finalizing an unclaimed on-chain retirement: open the owner's wallet, fill in the certificate's
// beneficiary, reason and comment and the on-chain reference, read the exact message, sign it
// locally, and send only {retirementId, signer, signature, signedData}.
import { useState } from 'react';
import type { Retirement } from '@shared/registry/resources';
import { desk, describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { formatTonnesValue } from '@renderer/lib/format';
import { useWallet } from '@renderer/stores/wallet';
import { useConnections } from '@renderer/stores/connections';
import { useBackOffice } from '@renderer/stores/backOffice';
import { finalizeMessage, type FinalizeFields } from '@renderer/wallet/signedMessage';
import { Dialog } from '@renderer/components/Dialog';
import { ErrorMessage } from '@renderer/components/feedback';
import { ReviewConfirmActions } from '@renderer/components/ReviewFormActions';
import { useAction } from '@renderer/components/useAction';
import { WalletImport } from './WalletImport';
import { EMPTY, knownTokenId, trimmed } from './finalizeFields';
import { DetailsForm } from './FinalizeDetailsForm';

export function FinalizeDialog({
  retirementId,
  projectName,
  amount,
  onClose,
  onFinalized,
  returnFocus,
}: {
  /** Where focus goes on closing once the button that opened it is gone (finalized, it is). */
  returnFocus?: () => Element | null | undefined;
  retirementId: string;
  projectName: string;
  amount: number;
  onClose: () => void;
  onFinalized: (retirement: Retirement) => void;
}) {
  const address = useWallet((s) => s.address);
  // The embedded registry is the demo: its wallets' keys are the desk's to offer.
  const demo = useConnections((s) => s.active()?.kind === 'embedded');
  const sign = useWallet((s) => s.signFinalization);
  const forget = useWallet((s) => s.forget);
  // The fields the user edited, each on its own: a field not edited yet is what the desk knows (see
  // hints below), even when the hints arrive after the user started typing in another field.
  const [edited, setEdited] = useState<Partial<FinalizeFields>>({});
  const [step, setStep] = useState<'details' | 'review' | 'done'>('details');
  // What the desk knows of this retirement's project: its contract address and token ids, filled in.
  // Read again when the back office's cache was synced: it may then name the token retired.
  const backOfficeVersion = useBackOffice((s) => s.version);
  const hints = useLoader(() => desk('retirements.finalizeHints', { retirementId }), [retirementId, backOfficeVersion]);
  const known = hints.data;
  const fields: FinalizeFields = {
    ...EMPTY,
    projectAddress: known?.projectAddress ?? '',
    tokenId: knownTokenId(known ?? null),
    ...edited,
  };
  const message = finalizeMessage(trimmed(fields));
  // The wallet opened must be the one that made this retirement, checked with the registry before anything is signed.
  const walletCheck = useLoader(
    () => (address ? desk('retirements.walletCheck', { retirementId, wallet: address }) : Promise.resolve(null)),
    [retirementId, address],
  );
  const walletProblem = !address
    ? null
    : walletCheck.error
      ? `The wallet could not be checked against this retirement: ${describeError(walletCheck.error)}`
      : walletCheck.loading || !walletCheck.data
        ? 'Checking that this wallet made this retirement…'
        : walletCheck.data.owns
          ? null
          : 'This wallet did not make this retirement: open the wallet that retired these credits.';

  const finalize = useAction(async () => {
    const signedData = trimmed(fields);
    const { signer, signature, signedMessage } = await sign(signedData);
    if (signedMessage !== finalizeMessage(signedData))
      throw new Error('The wallet signed another text than the one shown; nothing was sent.');
    const { retirement } = await desk('retirements.finalize', { retirementId, signer, signature, signedData });
    setStep('done');
    onFinalized(retirement);
  });

  return (
    <Dialog
      title="Finalize retirement"
      onClose={onClose}
      wide
      step={`${address ? 'wallet' : 'no-wallet'}:${step}`}
      returnFocus={returnFocus}
    >
      <p className="muted">
        Retirement <span className="mono">{retirementId}</span>: {formatTonnesValue(amount)} of {projectName}. Finalizing proves you own the
        wallet that retired these credits and sets who the certificate is for.
      </p>
      {step === 'done' ? (
        <div className="success" role="status" data-step-focus tabIndex={-1}>
          <p>
            <strong>Finalized.</strong> The retirement is now claimed for {fields.beneficiary.trim()} and its certificate can be downloaded.
          </p>
          <div className="actions">
            <button type="button" className="button button-primary" onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      ) : !address ? (
        <section aria-label="Wallet">
          <h3>1. Open the owner's wallet</h3>
          <WalletImport retirementId={retirementId} demo={demo} />
        </section>
      ) : (
        <>
          <p className="wallet-line">
            Signing with wallet <span className="mono">{address}</span>{' '}
            <button type="button" className="button-link" onClick={() => void forget()}>
              Use another wallet
            </button>
          </p>
          {step === 'details' ? (
            <section aria-label="Certificate details">
              <h3>2. Certificate details</h3>
              {walletProblem && (
                <p className={walletCheck.data?.owns === false || walletCheck.error ? 'inline-error' : 'muted'} role="alert">
                  {walletProblem}
                </p>
              )}
              <DetailsForm
                fields={fields}
                hints={hints.data ?? null}
                walletProblem={walletProblem}
                onChange={(key, value) => setEdited((e) => ({ ...e, [key]: value }))}
                onReview={() => setStep('review')}
              />
            </section>
          ) : (
            <section aria-label="Review and sign">
              <h3>3. Review and sign</h3>
              <p>Your wallet will sign exactly this text (fields joined by “;;”):</p>
              <pre className="signed-message" aria-label="Message to sign">
                {message}
              </pre>
              <p className="muted">
                Only the wallet address <span className="mono">{address}</span>, the signature and these five fields are sent to the
                registry. The key never leaves this computer.
              </p>
              <ErrorMessage error={finalize.error ? `Finalizing failed: ${finalize.error}` : null} />
              <ReviewConfirmActions
                onBack={() => setStep('details')}
                busy={finalize.busy}
                blocked={walletProblem !== null}
                onConfirm={() => void finalize.run()}
              >
                {finalize.busy ? 'Signing and sending…' : 'Sign and finalize'}
              </ReviewConfirmActions>
            </section>
          )}
        </>
      )}
    </Dialog>
  );
}

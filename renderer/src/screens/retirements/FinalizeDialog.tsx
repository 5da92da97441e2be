// Finalizing an unclaimed on-chain retirement: open the owner's wallet, fill in the certificate's
// beneficiary, reason and comment and the on-chain reference, read the exact message, sign it
// locally, and send only {retirementId, signer, signature, signedData}.
import type { Retirement } from '@shared/registry/resources';
import { formatTonnesValue } from '@renderer/lib/format';
import { useWallet } from '@renderer/stores/wallet';
import { useConnections } from '@renderer/stores/connections';
import { Dialog } from '@renderer/components/Dialog';
import { ErrorMessage } from '@renderer/components/feedback';
import { ReviewConfirmActions } from '@renderer/components/ReviewFormActions';
import { WalletImport } from './WalletImport';
import { DetailsForm } from './FinalizeDetailsForm';
import { useFinalize } from './useFinalize';

/** The last step: the exact text the wallet signs, what is sent, and "Sign and finalize". */
function ReviewAndSign({
  address,
  message,
  finalize,
  blocked,
  onBack,
}: {
  address: string;
  message: string;
  finalize: { busy: boolean; error: string | null; run: () => Promise<unknown> };
  /** The wallet check objects (said in the details step). */
  blocked: boolean;
  onBack: () => void;
}) {
  return (
    <section aria-label="Review and sign">
      <h3>3. Review and sign</h3>
      <p>Your wallet will sign exactly this text (fields joined by “;;”):</p>
      <pre className="signed-message" aria-label="Message to sign">
        {message}
      </pre>
      <p className="muted">
        Only the wallet address <span className="mono">{address}</span>, the signature and these five fields are sent to the registry. The
        key never leaves this computer.
      </p>
      <ErrorMessage error={finalize.error ? `Finalizing failed: ${finalize.error}` : null} />
      <ReviewConfirmActions onBack={onBack} busy={finalize.busy} blocked={blocked} onConfirm={() => void finalize.run()}>
        {finalize.busy ? 'Signing and sending…' : 'Sign and finalize'}
      </ReviewConfirmActions>
    </section>
  );
}

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
  // The embedded registry is the demo: its wallets' keys are the desk's to offer.
  const demo = useConnections((s) => s.active()?.kind === 'embedded');
  const forget = useWallet((s) => s.forget);
  const { address, fields, setField, hints, message, walletProblem, walletRefused, step, setStep, finalize } = useFinalize(
    retirementId,
    onFinalized,
  );

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
                <p className={walletRefused ? 'inline-error' : 'muted'} role="alert">
                  {walletProblem}
                </p>
              )}
              <DetailsForm
                fields={fields}
                hints={hints}
                walletProblem={walletProblem}
                onChange={setField}
                onReview={() => setStep('review')}
              />
            </section>
          ) : (
            <ReviewAndSign
              address={address}
              message={message}
              finalize={finalize}
              blocked={walletProblem !== null}
              onBack={() => setStep('details')}
            />
          )}
        </>
      )}
    </Dialog>
  );
}

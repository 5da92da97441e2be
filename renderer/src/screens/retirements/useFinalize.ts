// The state of finalizing one retirement: the wallet opened and whether the registry says it made
// the retirement, the fields (what the desk knows, unless the user edited it), the step, and the
// signing and sending itself.
import { useState } from 'react';
import type { Retirement } from '@shared/registry/resources';
import { desk, describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { useWallet } from '@renderer/stores/wallet';
import { useBackOffice } from '@renderer/stores/backOffice';
import { finalizeMessage, type FinalizeFields } from '@renderer/wallet/signedMessage';
import { useAction } from '@renderer/components/useAction';
import { EMPTY, knownTokenId, trimmed } from './finalizeFields';

/**
 * Why signing with `address` must wait or cannot happen (null: it may), and whether that is a refusal
 * (not this retirement's wallet, or the check failed) rather than the check still under way.
 */
function useWalletCheck(retirementId: string, address: string | null) {
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
  return { walletProblem, walletRefused: Boolean(walletCheck.data?.owns === false || walletCheck.error) };
}

export function useFinalize(retirementId: string, onFinalized: (retirement: Retirement) => void) {
  const address = useWallet((s) => s.address);
  const sign = useWallet((s) => s.signFinalization);
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
  const { walletProblem, walletRefused } = useWalletCheck(retirementId, address);

  const finalize = useAction(async () => {
    const signedData = trimmed(fields);
    const { signer, signature, signedMessage } = await sign(signedData);
    if (signedMessage !== finalizeMessage(signedData))
      throw new Error('The wallet signed another text than the one shown; nothing was sent.');
    const { retirement } = await desk('retirements.finalize', { retirementId, signer, signature, signedData });
    setStep('done');
    onFinalized(retirement);
  });

  return {
    address,
    fields,
    setField: (key: keyof FinalizeFields, value: string) => setEdited((e) => ({ ...e, [key]: value })),
    hints: hints.data ?? null,
    message: finalizeMessage(trimmed(fields)),
    walletProblem,
    walletRefused,
    step,
    setStep,
    finalize,
  };
}

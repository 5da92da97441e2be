// One retirement's details, its certificate, and "Finalize" when it is an unclaimed on-chain one.
import { useRef, useState } from 'react';
import type { FullRetirement, Retirement } from '@shared/registry/resources';
import { desk, describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { formatDateTime, formatTonnesValue } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { useSync } from '@renderer/stores/sync';
import { useFreshness } from '@renderer/stores/freshness';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { ErrorMessage, Loading } from '@renderer/components/feedback';
import { FinalizeDialog } from './FinalizeDialog';
import { DetailsHeader, usePanelFocus } from '@renderer/components/DetailsPanel';
import { RetirementFacts } from './RetirementFacts';
import { useCertificateSave } from './useCertificateSave';
import { useRecordTitle } from '@renderer/lib/pageTitle';

/**
 * The panel for retirement `id`: a fresh one for each retirement, so nothing of another's (a
 * certificate still being prepared or its error, an open Finalize dialog) shows under this one.
 */
export function RetirementDetails({ id }: { id: string }) {
  return <RetirementPanel key={id} id={id} />;
}

/**
 * What can be done with the retirement: download its certificate when it is shown in full, finalize
 * it when unclaimed; both need the registry, and say so while it cannot be reached.
 */
function RetirementActions({
  retirement,
  full,
  offline,
  certificate,
  onFinalize,
}: {
  retirement: Retirement;
  full: FullRetirement | null;
  offline: boolean;
  certificate: { busy: boolean; save: () => Promise<void> };
  onFinalize: () => void;
}) {
  return (
    <>
      <div className="actions">
        {full && (
          <button
            type="button"
            className="button button-primary"
            // aria-disabled while it prepares: pressed, it keeps focus.
            aria-disabled={certificate.busy || undefined}
            disabled={offline}
            aria-describedby={offline ? 'retirement-offline-reason' : undefined}
            onClick={() => {
              if (!certificate.busy) void certificate.save();
            }}
          >
            {certificate.busy ? 'Preparing certificate…' : 'Download certificate (PDF)'}
          </button>
        )}
        {!retirement.isClaimed && (
          <button
            type="button"
            className="button button-primary"
            disabled={offline}
            aria-describedby={offline ? 'retirement-offline-reason' : undefined}
            onClick={onFinalize}
          >
            Finalize with wallet…
          </button>
        )}
      </div>
      {offline && (full || !retirement.isClaimed) && (
        <p id="retirement-offline-reason" className="muted">
          The registry cannot be reached: {full ? 'the certificate is made by the registry' : 'finalizing is recorded by the registry'}, so
          this is possible again once it is back.
        </p>
      )}
    </>
  );
}

function RetirementPanel({ id }: { id: string }) {
  const openRetirement = useNavigation((s) => s.openRetirement);
  const dataVersion = useSync((s) => s.dataVersion);
  // Certificates come from the registry (none is kept on this computer) and finalizing writes to it.
  const offline = useFreshness((s) => s.offline);
  const [finalizing, setFinalizing] = useState(false);
  const panelRef = useRef<HTMLElement>(null);
  // Focus moves into the panel as it opens; closed (by "×", Escape or another retirement's link), back to its row's name, or the list when it has scrolled away.
  usePanelFocus(
    panelRef,
    id,
    () => document.querySelector(`tr[data-retirement-id="${CSS.escape(id)}"] button`),
    () => document.querySelector('table[aria-label="Retirements"]'),
  );
  const details = useLoader(() => desk('retirements.get', { id }), [id], dataVersion);
  const certificate = useCertificateSave(id);
  // The registry's answer to finalize is the retirement as it now is; show it at once rather than
  // the cached copy, which catches up at the next sync.
  const [finalized, setFinalized] = useState<Retirement | null>(null);
  const retirement = finalized?.id === id ? finalized : details.data?.retirement;
  // Only a claimed retirement of a verified organization is shown in full (and has a certificate).
  const full = retirement && 'beneficiary' in retirement ? (retirement as FullRetirement) : null;
  // The window names the open retirement, as it names an open project or organization.
  useRecordTitle(retirement ? `Retirement: ${formatTonnesValue(retirement.amount)} of ${retirement.project.fullName}` : null);

  return (
    <aside ref={panelRef} className="card details" aria-label="Retirement details">
      <DetailsHeader title="Retirement" onClose={() => openRetirement(null)} />
      {details.loading && !retirement && <Loading />}
      <ErrorMessage error={details.error ? describeError(details.error) : null} onRetry={details.reload} />
      {retirement && (
        <>
          <p>
            <StatusBadge value={retirement.isClaimed ? 'claimed' : 'unclaimed'} /> {formatTonnesValue(retirement.amount)} on{' '}
            {formatDateTime(retirement.createdAt)}
          </p>
          <RetirementFacts retirement={retirement} full={full} />
          {!full && (
            <p className="muted">
              {retirement.isClaimed
                ? 'The organization behind this retirement has not passed business verification, so only the amount and project are public and there is no certificate.'
                : 'This retirement was made on chain and its owner has not claimed it yet. The owner can finalize it by signing with the wallet that retired the credits.'}
            </p>
          )}
          <RetirementActions
            retirement={retirement}
            full={full}
            offline={offline}
            certificate={certificate}
            onFinalize={() => setFinalizing(true)}
          />
          <p className="muted" role="status">
            {certificate.savedNote}
          </p>
          <ErrorMessage error={certificate.error ? `The certificate could not be saved: ${certificate.error}` : null} />
          {finalizing && (
            <FinalizeDialog
              retirementId={retirement.id}
              projectName={retirement.project.fullName}
              amount={retirement.amount}
              onClose={() => setFinalizing(false)}
              returnFocus={() => panelRef.current?.querySelector('.actions button') ?? panelRef.current}
              onFinalized={(updated) => {
                setFinalized(updated);
                void useSync.getState().run();
              }}
            />
          )}
        </>
      )}
    </aside>
  );
}

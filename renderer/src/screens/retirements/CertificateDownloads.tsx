// "Download certificates (n)": one PDF per selected retirement, one after the other, with progress
// and, for any that fail, which one and why.
import { useState } from 'react';
import { findRetirementRow, useRetirementList } from '../../stores/retirements';
import { describeError } from '../../lib/desk';
import { useFreshness } from '../../stores/freshness';
import { downloadCertificate } from './certificates';

export function CertificateDownloads() {
  const selected = useRetirementList((s) => s.selected);
  const ids = Object.keys(selected);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [failures, setFailures] = useState<string[]>([]);
  const offline = useFreshness((s) => s.offline);

  async function downloadAll() {
    setFailures([]);
    const failed: string[] = [];
    for (const [index, id] of ids.entries()) {
      setProgress({ done: index, total: ids.length });
      try {
        await downloadCertificate(id);
      } catch (error) {
        const row = findRetirementRow(useRetirementList.getState(), id);
        failed.push(`${row?.beneficiary ?? id}: ${describeError(error)}`);
      }
    }
    setProgress(null);
    setFailures(failed);
    if (failed.length === 0) useRetirementList.getState().clearSelection();
  }

  if (ids.length === 0 && failures.length === 0) return null;
  return (
    <span className="inline-action">
      {ids.length > 0 && (
        <button
          type="button"
          className="button"
          disabled={progress !== null || offline}
          title={offline ? 'Certificates come from the registry, which cannot be reached.' : undefined}
          onClick={() => void downloadAll()}
        >
          {progress ? `Saving ${progress.done + 1} of ${progress.total}…` : `Download certificates (${ids.length})`}
        </button>
      )}
      {failures.length > 0 && (
        <span className="inline-error" role="alert">
          {failures.length} certificate{failures.length === 1 ? '' : 's'} could not be saved: {failures.join('; ')}
        </span>
      )}
    </span>
  );
}

// "Download certificates (n)": the selected retirements' certificates as separate PDFs, one combined
// PDF (one retirement a page) or a ZIP, the user's choice; with progress and, for any that fail,
// which one and why; and once done, what was saved, how many and where.
import { useRef, useState } from 'react';
import { findRetirementRow, useRetirementList } from '@renderer/stores/retirements';
import { desk, describeError, saveFile } from '@renderer/lib/desk';
import { announce } from '@renderer/lib/signals';
import { returnFocusSoon } from '@renderer/lib/focus';
import { useFreshness } from '@renderer/stores/freshness';
import { downloadCertificate } from './certificates';
import { savedFilesNote, type SavedFile } from './savedFilesNote';

type Format = 'separate' | 'pdf' | 'zip';

const FORMATS: Array<{ value: Format; label: string }> = [
  { value: 'separate', label: 'Separate PDFs' },
  { value: 'pdf', label: 'One PDF (a page each)' },
  { value: 'zip', label: 'ZIP of PDFs' },
];

export function CertificateDownloads() {
  const selected = useRetirementList((s) => s.selected);
  const ids = Object.keys(selected);
  const [format, setFormat] = useState<Format>('separate');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [failures, setFailures] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const offline = useFreshness((s) => s.offline);
  const outcome = useRef<HTMLSpanElement>(null);

  async function downloadAll() {
    setFailures([]);
    setNote(null);
    const failed: string[] = [];
    // Only these leave the selection at the end: rows ticked meanwhile, and failed ones, stay ticked.
    const saved: string[] = [];
    const files: SavedFile[] = [];
    let cancelled = 0;
    if (format === 'separate') {
      for (const [index, id] of ids.entries()) {
        setProgress({ done: index, total: ids.length });
        try {
          const file = await downloadCertificate(id);
          if (file.saved) files.push(file);
          else cancelled += 1;
          saved.push(id);
        } catch (error) {
          const row = findRetirementRow(useRetirementList.getState(), id);
          failed.push(`${row?.beneficiary ?? id}: ${describeError(error)}`);
        }
      }
    } else {
      // The desk fetches them all and bundles them; a bundle is saved only whole (a missing
      // certificate would go unnoticed inside it).
      setProgress({ done: 0, total: ids.length });
      try {
        const bundle = await desk('retirements.certificates', { ids, format });
        const { saved: bundleSaved, path } = await saveFile(bundle);
        announce('desk:file-saved', { filename: bundle.filename, saved: bundleSaved });
        if (bundleSaved) files.push({ filename: bundle.filename, ...(path ? { path } : {}) });
        else cancelled += 1;
        saved.push(...ids);
      } catch (error) {
        failed.push(`the combined file: ${describeError(error)}`);
      }
    }
    setProgress(null);
    setFailures(failed);
    setNote(savedFilesNote(files, format === 'separate' ? files.length : files.length > 0 ? ids.length : 0, cancelled));
    useRetirementList.getState().deselect(saved);
    // With every selected one saved the button is gone: focus goes to what was saved, not the page.
    returnFocusSoon(() => outcome.current);
  }

  if (ids.length === 0 && failures.length === 0 && note === null) return null;
  return (
    <span className="inline-action" ref={outcome} tabIndex={-1}>
      {ids.length > 0 && (
        <>
          <label className="inline-field">
            <span>Save as</span>
            <select value={format} onChange={(e) => setFormat(e.target.value as Format)} disabled={progress !== null}>
              {FORMATS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          {/* aria-disabled while saving: pressed, it keeps focus until the outcome takes it. */}
          <button
            type="button"
            className="button"
            disabled={offline}
            aria-disabled={progress !== null || undefined}
            title={offline ? 'Certificates come from the registry, which cannot be reached.' : undefined}
            onClick={() => {
              if (progress === null) void downloadAll();
            }}
          >
            {progress ? `Saving ${progress.done + 1} of ${progress.total}…` : `Download certificates (${ids.length})`}
          </button>
        </>
      )}
      {note && (
        <span className="hint" role="status">
          {note}
        </span>
      )}
      {failures.length > 0 && (
        <span className="inline-error" role="alert">
          {format === 'separate'
            ? `${failures.length} certificate${failures.length === 1 ? '' : 's'} could not be saved: `
            : 'Nothing was saved: '}
          {failures.join('; ')}
        </span>
      )}
    </span>
  );
}

// "Export CSV": asks the desk for the CSV of exactly the list on screen, then saves it.
import type { DeskInput } from '@shared/desk/api';
import { desk, saveFile } from '../lib/desk';
import { announce } from '../lib/signals';
import { useAction } from './useAction';

export function ExportCsvButton({
  request,
  label = 'Export CSV',
  disabled,
}: {
  request: DeskInput<'export.csv'>;
  label?: string;
  disabled?: boolean;
}) {
  const exportCsv = useAction(async () => {
    const file = await desk('export.csv', request);
    const result = await saveFile(file);
    announce('desk:file-saved', { filename: file.filename, saved: result.saved });
  });
  return (
    <span className="inline-action">
      <button type="button" className="button" onClick={() => void exportCsv.run()} disabled={disabled || exportCsv.busy}>
        {exportCsv.busy ? 'Exporting…' : label}
      </button>
      {exportCsv.error && (
        <span className="inline-error" role="alert">
          Export failed: {exportCsv.error}
        </span>
      )}
    </span>
  );
}

// Whether the registry's history verified at the last sync (docs/desk.md), in the words the sync
// status and the connection in Settings both use: entries and time in the desk's number and date formats.
import type { HistoryVerification } from '@shared/desk/api';
import { formatCount, formatDateTime } from '../lib/format';

export function historyText(history: HistoryVerification | undefined | null): string | null {
  switch (history?.state) {
    case 'verified':
      return `History verified: ${formatCount(history.entries ?? 0)} ${history.entries === 1 ? 'entry' : 'entries'}, up to ${formatDateTime(history.upTo)}`;
    case 'unverifiable':
      return 'History not verifiable: this registry publishes no transparency log';
    case 'failed':
      return `${history.message ?? "This registry's history changed since it was last verified."} The desk keeps the data it verified.`;
    default:
      return null;
  }
}

export function HistoryLine({ history }: { history: HistoryVerification | undefined | null }) {
  const text = historyText(history);
  if (!text) return null;
  return <p className={history?.state === 'failed' ? 'sync-error sync-history' : 'muted sync-history'}>{text}</p>;
}

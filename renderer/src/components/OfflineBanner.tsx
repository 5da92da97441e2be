// Shown while reads come back from the cache because the registry cannot be reached.
import { useFreshness } from '../stores/freshness';
import { useSync } from '../stores/sync';
import { formatAge, formatDateTime } from '../lib/format';
import { useNow } from '../lib/hooks';

export function OfflineBanner() {
  const offline = useFreshness((s) => s.offline);
  // The oldest saved data a screen read since going offline; else what the last sync saved.
  const readAsOf = useFreshness((s) => s.offlineAsOf);
  const syncedAsOf = useSync((s) => s.status?.dataAsOf ?? null);
  const asOf = readAsOf ?? syncedAsOf;
  const now = useNow();
  if (!offline) return null;
  return (
    <div className="offline-banner" role="status" aria-live="polite">
      <strong>Offline.</strong>{' '}
      {asOf
        ? `The registry cannot be reached. You are seeing data saved ${formatAge(asOf, now)} (${formatDateTime(asOf)}); changes are not possible until it is back.`
        : 'The registry cannot be reached, and nothing has been saved on this computer yet.'}
    </div>
  );
}

// Sync status in the sidebar: progress with counts while running, when data was last synced,
// the last error in words, and "Sync now".
import { useSync } from '../stores/sync';
import { useFreshness } from '../stores/freshness';
import { formatAge, formatCount, humanize } from '../lib/format';
import { useNow } from '../lib/hooks';
import { useEffect, useRef } from 'react';
import { say } from './Announcer';
import { HistoryLine } from './HistoryLine';

/**
 * A sync error in words, and its technical part: the desk's errors name the request that failed
 * ("changes feed: GET /sync/v1/changes: the registry cannot be reached"), which helps whoever reads
 * the details and no one else, so the line says only what happened after it.
 */
export function syncErrorInWords(message: string): { plain: string; detail: string | null } {
  const request = /^(?:[^:]*: )?(?:GET|POST|PUT|PATCH|DELETE|HEAD) \/\S*: (.+)$/s.exec(message);
  if (!request) return { plain: message, detail: null };
  const plain = request[1]!.replace(/\s*\((?:E[A-Z]+|UND_ERR\w*)\)$/, '');
  return { plain: plain.charAt(0).toUpperCase() + plain.slice(1), detail: message };
}

/** What the sync is doing, in words: for the line and for the announcer. */
function progressText(progress: ReturnType<typeof useSync.getState>['progress']): string {
  if (!progress) return 'Syncing…';
  const counts = progress.total !== null ? `${formatCount(progress.done)} of ${formatCount(progress.total)}` : formatCount(progress.done);
  const eta = progress.etaMs !== null && progress.etaMs > 1500 ? `, about ${Math.ceil(progress.etaMs / 1000)} s left` : '';
  return `Syncing ${humanize(progress.resource).toLowerCase()}: ${counts}${eta}`;
}

/**
 * Sync progress goes to the one announcer (throttled, each message replacing the one still waiting),
 * not to a live region of its own rewritten on every event; and each sync's end, once. The end is
 * heard from the ended-sync counter (`dataVersion`), not from `running` turning false: a quick sync
 * can start and end within one render, and its end must still be said.
 */
function useSyncAnnouncements() {
  const running = useSync((s) => s.running);
  const progress = useSync((s) => s.progress);
  const lastError = useSync((s) => s.lastError);
  const endedSyncs = useSync((s) => s.dataVersion);
  const heardEnded = useRef(endedSyncs);
  useEffect(() => {
    if (endedSyncs === heardEnded.current) return;
    heardEnded.current = endedSyncs;
    say(lastError ? `Sync failed: ${syncErrorInWords(lastError).plain}` : 'Sync finished.', 'sync');
  }, [endedSyncs, lastError]);
  // (after the end: a sync that started since replaces "Sync finished." if it is still waiting)
  useEffect(() => {
    if (running) say(progressText(progress), 'sync');
  }, [running, progress]);
}

function ProgressLine() {
  const progress = useSync((s) => s.progress);
  if (!progress) return <span>Syncing…</span>;
  return (
    <>
      <span>{progressText(progress)}</span>
      {progress.total !== null && progress.total > 0 && (
        <progress max={progress.total} value={Math.min(progress.done, progress.total)} aria-label="Sync progress" />
      )}
    </>
  );
}

function SyncError({ message }: { message: string }) {
  const { plain, detail } = syncErrorInWords(message);
  return (
    <div className="sync-error">
      <p>Last sync failed: {plain}</p>
      {detail && (
        <details className="error-details">
          <summary>Details</summary>
          <span className="mono">{detail}</span>
        </details>
      )}
    </div>
  );
}

export function SyncIndicator() {
  const running = useSync((s) => s.running);
  const status = useSync((s) => s.status);
  const lastError = useSync((s) => s.lastError);
  const runError = useSync((s) => s.runError);
  const run = useSync((s) => s.run);
  // Offline as the banner has it (a read came back from the cache) or as the desk's probe says.
  const offline = useFreshness((s) => s.offline) || status?.online === false;
  const dot = running ? 'running' : offline ? 'offline' : lastError ? 'error' : 'ok';
  useNow(); // re-render each second so "synced 2 minutes ago" stays true
  useSyncAnnouncements();
  return (
    <section className="sync-indicator" aria-label="Sync status">
      <div className="sync-line">
        {/* The dot's colour is said in words too: "Offline", "Last sync failed" (below), or nothing when all is well. */}
        <span className={`sync-dot sync-dot-${dot}`} aria-hidden="true" data-state={dot} />
        {running ? (
          <ProgressLine />
        ) : (
          <span>
            {offline && <strong className="sync-offline">Offline · </strong>}
            Last synced {formatAge(status?.dataAsOf)}
          </span>
        )}
      </div>
      {!running && lastError && <SyncError message={lastError} />}
      {/* a failure already said by the last error is not said twice */}
      {!(status?.history?.state === 'failed' && lastError === status.history.message) && <HistoryLine history={status?.history} />}
      {runError && (
        <p className="sync-error" role="alert">
          {runError}
        </p>
      )}
      {/* aria-disabled, not disabled: pressed, it keeps focus while the sync runs. */}
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          if (!running) void run();
        }}
        aria-disabled={running}
        aria-keyshortcuts="Control+R"
      >
        {running ? 'Syncing…' : 'Sync now'}
      </button>
    </section>
  );
}

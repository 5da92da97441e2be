// A project's timeline: every event the desk knows, newest first: status changes (the internal
// view), issuances (ex-post and ex-ante told apart), other credit events, retirements of its credits
// (from the synced retirements), and cancellations, which the registry publishes only as totals per
// vintage (no date), listed after the dated events. Transfers between holders are not published per
// project by the registry; the timeline says so rather than showing an incomplete list.
import type { DeskOutput, RetirementRow } from '@shared/desk/api';
import type { CreditEvent, ProjectEvent } from '@shared/registry/resources';
import { desk } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { formatCount, formatDateTime, formatDay, formatTonnesValue, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { useRetirementList } from '@renderer/stores/retirements';
import { useSync } from '@renderer/stores/sync';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { ErrorMessage } from '@renderer/components/feedback';

type Credits = DeskOutput<'projects.get'>['credits'];

const RETIREMENTS_SHOWN = 100;

type Entry =
  | { kind: 'status'; at: string; event: ProjectEvent }
  | { kind: 'credit'; at: string; event: CreditEvent; creditType: 'exPost' | 'exAnte' | null }
  | { kind: 'retirement'; at: string; retirement: RetirementRow };

export type TimelineKind = 'status' | 'issuance' | 'cancellation' | 'retirement' | 'other';

const CREDIT_TYPE: Record<string, string> = { exPost: 'ex-post', exAnte: 'ex-ante' };

type VintageSummary = NonNullable<Credits>['vintages'][number]['summary'];

/**
 * Whether an issuance was of ex-post or ex-ante credits. The event names its credit type only when
 * the registry says exPost or exAnte there (ours says "carbon"); otherwise the vintage tells when it
 * holds only one kind, and else the monitoring period does: ex-ante credits are issued before the
 * mitigation they stand for is over, ex-post ones after it was monitored.
 */
export function issuanceCreditType(event: CreditEvent, vintage: VintageSummary): 'exPost' | 'exAnte' | null {
  if (event.creditType === 'exPost' || event.creditType === 'exAnte') return event.creditType;
  const exPost = vintage.exPost + vintage.exPostCancelled;
  const exAnte = vintage.exAnte + vintage.exAnteCancelled;
  if (exPost > 0 && exAnte === 0) return 'exPost';
  if (exAnte > 0 && exPost === 0) return 'exAnte';
  const issued = Date.parse(event.createdAt);
  const monitored = Date.parse(event.monitoringPeriodEnd);
  if (Number.isNaN(issued) || Number.isNaN(monitored)) return null;
  return monitored > issued ? 'exAnte' : 'exPost';
}

function creditEventKind(event: CreditEvent): TimelineKind {
  const type = event.type.toLowerCase();
  if (type.includes('issu')) return 'issuance';
  if (type.includes('cancel')) return 'cancellation';
  if (type.includes('retire')) return 'retirement';
  return 'other';
}

function creditEventText(event: CreditEvent, type: 'exPost' | 'exAnte' | null): string {
  const kind = creditEventKind(event);
  const creditType = type ? CREDIT_TYPE[type] : humanize(event.creditType).toLowerCase();
  const what = kind === 'issuance' ? 'Issued' : kind === 'cancellation' ? 'Cancelled' : humanize(event.type);
  return `${what} ${formatTonnesValue(event.amount)} ${creditType} · vintage ${event.vintage}`;
}

function EntryText({ entry }: { entry: Entry }) {
  if (entry.kind === 'status') {
    const e = entry.event;
    return e.type === 'status_change' ? (
      <>
        Status changed from <StatusBadge value={e.previousProjectStatus} /> to <StatusBadge value={e.projectStatus} />
      </>
    ) : (
      <>{humanize(e.type)}</>
    );
  }
  if (entry.kind === 'credit') {
    const e = entry.event;
    return (
      <>
        {creditEventText(e, entry.creditType)}
        <span className="cell-secondary">
          Monitoring {formatDay(e.monitoringPeriodStart)} – {formatDay(e.monitoringPeriodEnd)}, verified by {e.verificationBody.fullName}
        </span>
      </>
    );
  }
  const r = entry.retirement;
  return (
    <>
      Retired {formatTonnesValue(r.amount)}
      {r.vintage ? ` · vintage ${r.vintage}` : ''} {r.beneficiary ? `for ${r.beneficiary}` : '(unclaimed, on chain)'}
    </>
  );
}

function kindOf(entry: Entry): TimelineKind {
  if (entry.kind === 'status') return 'status';
  if (entry.kind === 'retirement') return 'retirement';
  return creditEventKind(entry.event);
}

export function ProjectTimeline({
  projectId,
  events,
  credits,
}: {
  projectId: string;
  events: ProjectEvent[] | undefined;
  credits: Credits;
}) {
  const dataVersion = useSync((s) => s.dataVersion);
  const openRetirement = useNavigation((s) => s.openRetirement);
  const go = useNavigation((s) => s.go);
  const retirements = useLoader(
    () =>
      desk('retirements.search', {
        filters: { projectId },
        sort: { field: 'createdAt', direction: 'desc' },
        limit: RETIREMENTS_SHOWN,
      }),
    [projectId],
    dataVersion,
  );
  const entries: Entry[] = [
    ...(events ?? []).map((event): Entry => ({ kind: 'status', at: event.createdAt, event })),
    ...(credits?.vintages ?? []).flatMap((v) =>
      v.events.map((event): Entry => ({ kind: 'credit', at: event.createdAt, event, creditType: issuanceCreditType(event, v.summary) })),
    ),
    ...(retirements.data?.rows ?? []).map((retirement): Entry => ({ kind: 'retirement', at: retirement.createdAt, retirement })),
  ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  const cancellations = (credits?.vintages ?? []).flatMap((v) =>
    (
      [
        ['exPost', v.summary.exPostCancelled],
        ['exAnte', v.summary.exAnteCancelled],
      ] as const
    )
      .filter(([, amount]) => amount > 0)
      .map(([type, amount]) => ({ vintage: v.vintage, type, amount })),
  );
  const moreRetirements = (retirements.data?.total ?? 0) - (retirements.data?.rows.length ?? 0);

  return (
    <>
      {!events && <p className="muted">Status changes are part of the internal view of the project (switch the list to Internal).</p>}
      <ErrorMessage error={retirements.error ? 'The retirements of this project could not be read.' : null} onRetry={retirements.reload} />
      {entries.length === 0 && cancellations.length === 0 ? (
        <p className="muted">No events recorded yet.</p>
      ) : (
        <ol className="timeline" aria-label="Timeline">
          {entries.map((entry) => (
            <li
              key={`${entry.kind}-${entry.kind === 'retirement' ? entry.retirement.id : entry.event.id}`}
              data-kind={kindOf(entry)}
              data-credit-type={entry.kind === 'credit' ? (entry.creditType ?? undefined) : undefined}
            >
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              <span>
                <EntryText entry={entry} />
                {entry.kind === 'retirement' && (
                  <>
                    {' '}
                    {/* Named for its retirement: a list of buttons all called "Open retirement" says nothing. */}
                    <button
                      type="button"
                      className="button-link"
                      aria-label={`Open retirement of ${formatTonnesValue(entry.retirement.amount)}, ${formatDateTime(entry.at)}`}
                      onClick={() => openRetirement(entry.retirement.id)}
                    >
                      Open retirement
                    </button>
                  </>
                )}
              </span>
            </li>
          ))}
          {cancellations.map((c) => (
            <li key={`cancel-${c.vintage}-${c.type}`} data-kind="cancellation" data-credit-type={c.type}>
              <span className="muted">No date published</span>
              <span>
                Cancelled {formatTonnesValue(c.amount)} {CREDIT_TYPE[c.type]} · vintage {c.vintage} (the registry publishes cancellations as
                totals per vintage)
              </span>
            </li>
          ))}
        </ol>
      )}
      {moreRetirements > 0 && (
        <p className="muted">
          The {formatCount(RETIREMENTS_SHOWN)} latest retirements are shown; {formatCount(moreRetirements)}
          {retirements.data?.totalIsLowerBound ? '+' : ''} more are in{' '}
          <button
            type="button"
            className="button-link"
            onClick={() => {
              useRetirementList.getState().setQuery({ projectId });
              go('retirements');
            }}
          >
            this project&apos;s retirements
          </button>
          .
        </p>
      )}
      <p className="muted">Transfers of this project&apos;s credits between holders are not published per project by the registry.</p>
    </>
  );
}

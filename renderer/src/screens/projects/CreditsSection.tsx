// A project's credits: the overall summary, the chart by vintage, and each vintage's issuance
// events with monitoring period, verification body and files.
import type { DeskOutput } from '@shared/desk/api';
import type { CreditEvent, CreditSummary } from '@shared/registry/resources';
import { compareNames, formatDate, formatDay, formatTonnesValue, humanize } from '@renderer/lib/format';
import { ExternalLink } from '@renderer/components/ExternalLink';
import { EmptyState } from '@renderer/components/feedback';
import { CreditsChart } from './CreditsChart';
import { issuanceCreditType } from './ProjectTimeline';

const creditTypeLabel = (type: 'exPost' | 'exAnte' | null) => (type === 'exPost' ? 'Ex-post' : type === 'exAnte' ? 'Ex-ante' : null);

type Credits = NonNullable<DeskOutput<'projects.get'>['credits']>;

const SUMMARY_FIELDS: Array<[keyof CreditSummary, string]> = [
  ['exPost', 'Ex-post issued'],
  ['exPostCancelled', 'Ex-post cancelled'],
  ['exAnte', 'Ex-ante issued'],
  ['exAnteCancelled', 'Ex-ante cancelled'],
  ['retired', 'Retired'],
  ['validated', 'Validated'],
];

export function SummaryTiles({ summary, label }: { summary: CreditSummary; label: string }) {
  return (
    <dl className="tiles" aria-label={label}>
      {SUMMARY_FIELDS.map(([key, title]) => (
        <div key={key} className="tile">
          <dt>{title}</dt>
          <dd>{formatTonnesValue(summary[key])}</dd>
        </div>
      ))}
    </dl>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function IssuanceEvents({ events, summary }: { events: CreditEvent[]; summary: CreditSummary }) {
  if (events.length === 0) return <p className="muted">No issuance events in this vintage.</p>;
  return (
    <table className="simple-table">
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Event</th>
          <th scope="col" className="numeric">
            Amount
          </th>
          <th scope="col">Monitoring period</th>
          <th scope="col">Verification body</th>
          <th scope="col">Files</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <td>{formatDate(e.createdAt)}</td>
            <td>
              {humanize(e.type)} · {creditTypeLabel(issuanceCreditType(e, summary)) ?? humanize(e.creditType)}
            </td>
            <td className="numeric">{formatTonnesValue(e.amount)}</td>
            <td>
              {formatDay(e.monitoringPeriodStart)} – {formatDay(e.monitoringPeriodEnd)}
            </td>
            <td>
              <ExternalLink href={e.verificationBody.directoryUrl}>{e.verificationBody.fullName}</ExternalLink>
            </td>
            <td>
              {e.files.length === 0
                ? '—'
                : e.files.map((f) => (
                    <div key={f.id}>
                      <ExternalLink href={f.url} label={`Open ${f.fileName}`}>
                        {f.fileName}
                      </ExternalLink>{' '}
                      <span className="muted">
                        ({humanize(f.type)}, {formatSize(f.size)})
                      </span>
                    </div>
                  ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CreditsSection({ credits }: { credits: Credits | null }) {
  return (
    <section className="card" aria-label="Credits">
      <h2>Credits</h2>
      {!credits || credits.vintages.length === 0 ? (
        <EmptyState title="No credits issued yet">Credits appear here once the registry issues them for a vintage.</EmptyState>
      ) : (
        <>
          <SummaryTiles summary={credits.summary} label="Credit summary" />
          <CreditsChart
            bars={[...credits.vintages]
              .sort((a, b) => compareNames(a.vintage, b.vintage))
              .map((v) => ({ vintage: v.vintage, issued: v.summary.exPost, retired: v.summary.retired }))}
          />
          {[...credits.vintages]
            .sort((a, b) => compareNames(b.vintage, a.vintage))
            .map((v) => (
              <section key={v.vintage} className="vintage" aria-label={`Vintage ${v.vintage}`}>
                <h3>Vintage {v.vintage}</h3>
                <p className="muted">
                  {formatTonnesValue(v.summary.exPost)} ex-post · {formatTonnesValue(v.summary.exAnte)} ex-ante ·{' '}
                  {formatTonnesValue(v.summary.retired)} retired · {formatTonnesValue(v.summary.validated)} validated
                </p>
                <IssuanceEvents events={v.events} summary={v.summary} />
              </section>
            ))}
        </>
      )}
    </section>
  );
}

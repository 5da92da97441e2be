// One project with every field of the interface: descriptions, facts, location, proponents and
// validators, documents, benefits, the status timeline and the credits by vintage.
import type { DeskOutput } from '../../../../shared/desk/api';
import type { Document, OrganizationSummary, ProjectEvent } from '../../../../shared/registry/resources';
import { desk } from '../../lib/desk';
import { useLoader } from '../../lib/hooks';
import { countryName, formatDate, formatDateTime, humanize } from '../../lib/format';
import { useNavigation } from '../../stores/navigation';
import { useSync } from '../../stores/sync';
import { StatusBadge } from '../../components/StatusBadge';
import { ExternalLink } from '../../components/ExternalLink';
import { Facts } from '../../components/DefinitionList';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback';
import { describeError } from '../../lib/desk';
import { CreditsSection } from './CreditsSection';

type ProjectData = DeskOutput<'projects.get'>['project'];

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function Organizations({ organizations, none }: { organizations: OrganizationSummary[]; none: string }) {
  if (organizations.length === 0) return <p className="muted">{none}</p>;
  return (
    <ul className="plain-list">
      {organizations.map((o) => (
        <li key={o.id}>
          <span className="avatar" aria-hidden="true">
            {o.fullName.slice(0, 1)}
          </span>
          <ExternalLink href={o.publicUrl}>{o.fullName}</ExternalLink>
        </li>
      ))}
    </ul>
  );
}

function Documents({ documents }: { documents: Document[] }) {
  if (documents.length === 0) return <p className="muted">No documents published.</p>;
  return (
    <table className="simple-table">
      <thead>
        <tr>
          <th scope="col">Document</th>
          <th scope="col">Type</th>
          <th scope="col">Visibility</th>
        </tr>
      </thead>
      <tbody>
        {documents.map((d) => (
          <tr key={d.id}>
            <td>
              <ExternalLink href={d.uri} label={`Open ${d.name}`}>
                {d.name}
              </ExternalLink>
            </td>
            <td>{humanize(d.type)}</td>
            <td>{d.isPublic ? 'Public' : 'Internal'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Timeline({ events }: { events: ProjectEvent[] | undefined }) {
  if (!events)
    return <p className="muted">The status history is part of the internal view of the project (switch the list to Internal).</p>;
  if (events.length === 0) return <p className="muted">No status changes recorded.</p>;
  const ordered = [...events].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return (
    <ol className="timeline" aria-label="Status history">
      {ordered.map((e) => (
        <li key={e.id}>
          <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
          <span>
            {e.type === 'status_change' ? (
              <>
                Status changed from <StatusBadge value={e.previousProjectStatus} /> to <StatusBadge value={e.projectStatus} />
              </>
            ) : (
              humanize(e.type)
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}

function ProjectBody({ project, credits }: { project: ProjectData; credits: DeskOutput<'projects.get'>['credits'] }) {
  const events = 'events' in project ? project.events : undefined;
  const mitigations = project.estimatedAnnualMitigations.filter((m): m is string => m !== null && m !== '');
  return (
    <div className="project-grid">
      <Section title="Overview">
        <p className="lead">{project.shortDescription}</p>
        {project.description.split(/\n{2,}/).map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
      </Section>
      <Section title="Key facts">
        <Facts
          items={[
            ['Registry', project.registry],
            ['Start date', formatDate(project.startDate)],
            ['Crediting period start', formatDate(project.creditingPeriodStartDate)],
            ['Sector', project.sector.title],
            ['Methodology', project.methodology.title],
            ['Type', project.type.description ? `${project.type.title}: ${project.type.description}` : project.type.title],
            ['Estimated annual mitigations', mitigations.length ? mitigations.map((m) => `${m} tCO2e`).join(', ') : null],
            ['Public page', <ExternalLink href={project.publicUrl}>{project.publicUrl}</ExternalLink>],
          ]}
        />
      </Section>
      <Section title="Location">
        <Facts
          items={[
            ['Country', countryName(project.countryCode)],
            ['State or region', project.state],
            ['City', project.city],
            ['Coordinates', project.location ? `${project.location.lat.toFixed(4)}, ${project.location.lng.toFixed(4)}` : null],
            ['Boundary (KML)', project.kmlFile ? <ExternalLink href={project.kmlFile.uri}>{project.kmlFile.name}</ExternalLink> : null],
          ]}
        />
      </Section>
      <Section title="Proponents and validators">
        <h3>Proponents</h3>
        <Organizations organizations={project.proponents} none="No proponent listed." />
        <h3>Validators</h3>
        <Organizations organizations={project.validators} none="No validator listed." />
      </Section>
      <Section title="Documents">
        <Documents documents={project.documentation} />
      </Section>
      <Section title="Benefits">
        {project.otherBenefits.length === 0 ? (
          <p className="muted">No other benefits declared.</p>
        ) : (
          <ul className="benefits">
            {project.otherBenefits.map((b) => (
              <li key={b.id} className={b.checked ? 'benefit benefit-on' : 'benefit'}>
                <span aria-label={b.checked ? 'Claimed' : 'Not claimed'}>{b.checked ? '✓' : '–'}</span>
                <span>
                  <strong>{b.title}</strong>
                  {b.description && <span className="cell-secondary">{b.description}</span>}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Status history">
        <Timeline events={events} />
      </Section>
      <div className="span-all">
        <CreditsSection credits={credits} />
      </div>
    </div>
  );
}

export function ProjectPage({ id }: { id: string }) {
  const openProject = useNavigation((s) => s.openProject);
  const dataVersion = useSync((s) => s.dataVersion);
  const page = useLoader(() => desk('projects.get', { id }), [id], dataVersion);
  const project = page.data?.project;
  return (
    <div className="screen">
      <button type="button" className="button-link back-link" onClick={() => openProject(null)}>
        ← All projects
      </button>
      {page.loading && !project && <Loading label="Loading the project…" />}
      <ErrorMessage error={page.error ? describeError(page.error) : null} onRetry={page.reload} />
      {!page.loading && !project && !page.error && <EmptyState title="Project not found" />}
      {project && (
        <>
          <header className="screen-header">
            <div>
              <p className="eyebrow">Project {project.num}</p>
              <h1>{project.fullName}</h1>
              <p className="screen-subtitle">
                <StatusBadge value={project.status} /> {project.sector.title} · {countryName(project.countryCode)}
                {page.data?.asOf && ` · data as of ${formatDateTime(page.data.asOf)}`}
              </p>
            </div>
          </header>
          <ProjectBody project={project} credits={page.data?.credits ?? null} />
        </>
      )}
    </div>
  );
}

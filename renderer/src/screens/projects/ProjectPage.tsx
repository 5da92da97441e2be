// One project with every field of the interface: descriptions, facts, location, proponents and
// validators (opening the desk's organization page), documents, benefits, the timeline of every
// event, and the credits by vintage.
import type { DeskOutput } from '@shared/desk/api';
import type { Document, OrganizationSummary } from '@shared/registry/resources';
import { desk } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { countryName, formatDateTime, formatDay, formatTonnesNumber, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { useSync } from '@renderer/stores/sync';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { ExternalLink } from '@renderer/components/ExternalLink';
import { Facts } from '@renderer/components/DefinitionList';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { describeError } from '@renderer/lib/desk';
import { CreditsSection } from './CreditsSection';
import { focusElement, focusIsLost, returnFocusSoon } from '@renderer/lib/focus';
import { useEffect } from 'react';
import { ProjectTimeline } from './ProjectTimeline';
import { useRecordTitle } from '@renderer/lib/pageTitle';

type ProjectData = DeskOutput<'projects.get'>['project'];

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** Proponents and validators: each name opens the desk's own page of the organization. */
function Organizations({ organizations, none }: { organizations: OrganizationSummary[]; none: string }) {
  const openOrganization = useNavigation((s) => s.openOrganization);
  if (organizations.length === 0) return <p className="muted">{none}</p>;
  return (
    <ul className="plain-list">
      {organizations.map((o) => (
        <li key={o.id}>
          <span className="avatar" aria-hidden="true">
            {o.fullName.slice(0, 1)}
          </span>
          <button type="button" className="button-link" onClick={() => openOrganization(o.id, o.fullName)}>
            {o.fullName}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The estimated mitigations with their years: the interface lists one estimate a year, from the
 * crediting period's start year on (an empty estimate is shown as such, keeping the years in place).
 */
function Mitigations({ project }: { project: ProjectData }) {
  const start = new Date(project.creditingPeriodStartDate).getUTCFullYear();
  return (
    <table className="simple-table table-compact" aria-label="Estimated annual mitigations">
      <thead>
        <tr>
          <th scope="col">Year</th>
          <th scope="col" className="numeric">
            Estimated mitigation
          </th>
        </tr>
      </thead>
      <tbody>
        {project.estimatedAnnualMitigations.map((m, i) => (
          <tr key={i}>
            <td>{Number.isFinite(start) ? start + i : `Year ${i + 1}`}</td>
            <td className="numeric">
              {m === null || m === '' ? '—' : Number.isFinite(Number(m)) ? `${formatTonnesNumber(Number(m))} tCO2e` : m}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
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

function ProjectBody({ project, credits }: { project: ProjectData; credits: DeskOutput<'projects.get'>['credits'] }) {
  const events = 'events' in project ? project.events : undefined;
  const mitigations = project.estimatedAnnualMitigations.filter((m) => m !== null && m !== '');
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
            ['Start date', formatDay(project.startDate)],
            ['Crediting period start', formatDay(project.creditingPeriodStartDate)],
            ['Sector', project.sector.title],
            ['Methodology', project.methodology.title],
            ['Type', project.type.description ? `${project.type.title}: ${project.type.description}` : project.type.title],
            ['Estimated annual mitigations', mitigations.length ? <Mitigations project={project} /> : null],
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
      <Section title="Timeline">
        <ProjectTimeline projectId={project.id} events={events} credits={credits} />
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
  useRecordTitle(project ? `Project ${project.num}: ${project.fullName}` : null);
  // Opened from the list (its row is gone now): focus starts on the project's name once it is shown.
  const shownId = project?.id;
  useEffect(() => {
    if (shownId && (focusIsLost() || document.activeElement?.matches('main'))) focusElement(document.querySelector('main h1'));
  }, [shownId]);
  // Closed ("← All projects", Escape): back to this project's row in the list, or the list's heading when the row is not drawn.
  useEffect(
    () => () =>
      returnFocusSoon(
        () => document.querySelector(`[role="row"][data-row-id="${CSS.escape(id)}"]`),
        () => document.querySelector('main h1'),
      ),
    [id],
  );
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

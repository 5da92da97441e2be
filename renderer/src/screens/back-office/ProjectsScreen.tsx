// Back office: Projects (operator). Every project of any status (filtered by status, paged); a new
// draft; a project's page with every field, its status history with the comments, an edit while it
// is a draft, and the status changes the registry allows from its status (only those are offered),
// each asking for a comment the history keeps. Opening a project moves focus into its panel (its
// heading), so its status changes are a few Tab presses away, not after every row of the list;
// closing it (× or Escape) gives focus back to the project's row.
import { useId, useRef, useState } from 'react';
import { PROJECT_STATUS_TRANSITIONS, PROJECT_STATUSES, MAX_PAGE_SIZE, type ProjectStatus } from '@shared/registry/vocabulary';
import { AnySelect } from '@renderer/components/AnySelect';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { useRecordTitle } from '@renderer/lib/pageTitle';
import { Facts } from '@renderer/components/DefinitionList';
import { DetailsHeader, DetailsPanel } from '@renderer/components/DetailsPanel';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { describeError } from '@renderer/lib/desk';
import { countryName, formatDate, formatDateTime, formatDay, humanize } from '@renderer/lib/format';
import { focusSoon } from '@renderer/lib/focus';
import { moveAmongRows } from '@renderer/lib/rowKeyboard';
import { useNavigation } from '@renderer/stores/navigation';
import { BackOfficePage } from './BackOfficePage';
import { useOrganizationNames, useOrganizationTypes } from './organizationNames';
import { ProjectFormDialog } from './ProjectFormDialog';
import { CHANGE_LABEL, StatusChangeDialog } from './StatusChangeDialog';

const rowOf = (id: string) => () => document.querySelector(`tr[data-project-id="${CSS.escape(id)}"] button`);
const STATUS_OPTIONS = PROJECT_STATUSES.map((s) => [s, humanize(s)] as const);
const theList = () => document.querySelector('table[data-project-list]');

/** The list's name and heading: what the status filter shows ("Draft projects"), not every status. */
export const projectListName = (status: ProjectStatus | '') => (status ? `${humanize(status)} projects` : 'Projects of every status');

export function ProjectsScreen() {
  const [status, setStatus] = useState<ProjectStatus | ''>('');
  const [page, setPage] = useState(0);
  const openId = useNavigation((s) => s.backOffice.projectId ?? null);
  const open = useNavigation((s) => s.openBackOffice);
  const organizations = useOrganizationNames();
  const organizationTypes = useOrganizationTypes();
  const [creating, setCreating] = useState(false);
  const createdDraft = useRef(false);
  const list = useBackOfficeRead('operatorListProjects', { query: { limit: MAX_PAGE_SIZE, page, ...(status ? { status } : {}) } });
  const projects = list.data?.data.projects ?? [];
  const openListed = projects.find((p) => p.id === openId);
  const pagination = list.data?.data.pagination;
  const pages = pagination ? Math.max(1, Math.ceil(pagination.total / MAX_PAGE_SIZE)) : 1;
  const listHeading = useId();

  return (
    <BackOfficePage
      title="Projects (operator)"
      actions={
        <GatedButton can="operatorCreateProject" className="button button-primary" onClick={() => setCreating(true)}>
          New draft project
        </GatedButton>
      }
    >
      <div className="toolbar">
        <AnySelect
          className="inline-field"
          label="Status"
          value={status}
          options={STATUS_OPTIONS}
          onChange={(value) => {
            setStatus(value);
            setPage(0);
          }}
        />
        <span className="muted" aria-live="polite">
          {pagination ? `${pagination.total} project${pagination.total === 1 ? '' : 's'}` : ''}
        </span>
      </div>
      <ErrorMessage error={list.error ? describeError(list.error) : null} onRetry={list.reload} />
      <div className={openId ? 'split' : undefined}>
        <div>
          {list.loading && !list.data ? (
            <Loading label="Loading projects…" />
          ) : projects.length === 0 ? (
            <EmptyState title="No project has this status">Choose another status, or create a draft.</EmptyState>
          ) : (
            <>
              <h2 id={listHeading}>{projectListName(status)}</h2>
              <div className="table-wrap">
                <table className="simple-table" aria-labelledby={listHeading} data-project-list>
                  <thead>
                    <tr>
                      <th scope="col">Number</th>
                      <th scope="col">Name</th>
                      <th scope="col">Status</th>
                      <th scope="col">Proponent</th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody onKeyDown={moveAmongRows}>
                    {projects.map((p) => (
                      <tr key={p.id} data-project-id={p.id} className={p.id === openId ? 'row-current' : undefined}>
                        <td className="numeric">{p.num}</td>
                        <td>
                          <button type="button" className="button-link" onClick={() => open('bo-projects', { projectId: p.id })}>
                            {p.fullName}
                          </button>
                        </td>
                        <td>
                          <StatusBadge value={p.status} />
                        </td>
                        <td>{organizations.get(p.organizationId) ?? p.organizationId}</td>
                        <td>{formatDate(p.updatedAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
          {pages > 1 && (
            <div className="table-footer">
              <button type="button" className="button button-small" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous page
              </button>
              <span>
                Page {page + 1} of {pages}
              </span>
              <button type="button" className="button button-small" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                Next page
              </button>
            </div>
          )}
        </div>
        {openId && <ProjectPanel id={openId} listed={openListed} organizations={organizations} onClose={() => open('bo-projects', {})} />}
      </div>
      {creating && (
        <ProjectFormDialog
          organizations={organizations}
          organizationTypes={organizationTypes}
          onClose={() => {
            setCreating(false);
            // The new draft's panel opened behind the dialog: focus goes to its name, where Submit is
            // next, not back to "New draft project" (the draft is last in the list).
            if (createdDraft.current) focusSoon(() => document.querySelector('aside[aria-label="Project details"] h2'));
            createdDraft.current = false;
          }}
          onCreated={(id) => {
            createdDraft.current = true;
            open('bo-projects', { projectId: id });
          }}
        />
      )}
    </BackOfficePage>
  );
}

function ProjectPanel({
  id,
  listed,
  organizations,
  onClose,
}: {
  id: string;
  /** The project as the list shows it: its panel is named at once, while the project itself is read. */
  listed: { num: string; fullName: string } | undefined;
  organizations: Map<string, string>;
  onClose: () => void;
}) {
  const organizationTypes = useOrganizationTypes();
  const read = useBackOfficeRead('operatorGetProject', { params: { projectId: id } });
  const [editing, setEditing] = useState(false);
  const [changeTo, setChangeTo] = useState<ProjectStatus | null>(null);
  const project = read.data?.data.project;
  const details = read.data?.data.details;
  // Focus lands on the heading as the panel opens, before the project is read: it was read out as
  // "Project", and the window kept the list's title.
  const named = project ?? listed;
  useRecordTitle(named ? `Project ${named.num}: ${named.fullName}` : null);
  const orgName = (orgId: string) => organizations.get(orgId) ?? orgId;
  return (
    <DetailsPanel label="Project details" openKey={id} returnTo={rowOf(id)} fallback={theList}>
      <DetailsHeader title={named ? `${named.num} · ${named.fullName}` : 'Project'} onClose={onClose} closesOnEscape />
      <ErrorMessage error={read.error ? describeError(read.error) : null} onRetry={read.reload} />
      {read.loading && !read.data && <Loading label="Loading the project…" />}
      {project && details && (
        <div className="stack">
          <div className="actions" role="group" aria-label="Status changes">
            <StatusBadge value={project.status} />
            {(PROJECT_STATUS_TRANSITIONS[project.status] ?? []).map((next) => (
              <GatedButton key={next} can="operatorSetProjectStatus" className="button button-small" onClick={() => setChangeTo(next)}>
                {CHANGE_LABEL[next]}
              </GatedButton>
            ))}
            {project.status === 'draft' && (
              <GatedButton can="operatorUpdateProject" className="button button-small" onClick={() => setEditing(true)}>
                Edit draft
              </GatedButton>
            )}
          </div>
          {project.status !== 'draft' && <p className="muted">Only a draft can be edited.</p>}
          <Facts
            items={[
              ['Short description', details.shortDescription],
              ['Description', details.description],
              ['Proponents', details.proponents.map((o) => o.fullName).join(', ')],
              ['Validators', details.validators.map((o) => o.fullName).join(', ') || null],
              ['Country', countryName(details.countryCode)],
              ['Place', [details.city, details.state].filter(Boolean).join(', ') || null],
              ['Location', details.location ? `${details.location.lat}, ${details.location.lng}` : null],
              ['Start', formatDay(details.startDate)],
              ['Crediting period start', formatDay(details.creditingPeriodStartDate)],
              ['Sector', `${details.sector.title} (${details.sector.id})`],
              ['Methodology', `${details.methodology.title} (${details.methodology.id})`],
              ['Type', `${details.type.title} (${details.type.id})`],
              ['Estimated annual mitigations', details.estimatedAnnualMitigations.map((m) => m ?? '?').join(', ') || null],
              ['Documents', details.documentation.map((d) => `${d.name}${d.isPublic ? '' : ' (not public)'}`).join(', ') || null],
              ['KML file', details.kmlFile?.name ?? null],
              ['Other benefits', details.otherBenefits.map((b) => `${b.title}${b.checked ? ' ✓' : ''}`).join(', ') || null],
              ['Owner', orgName(project.organizationId)],
              ['Registry id', <span className="mono">{project.id}</span>],
            ]}
          />
          <section aria-labelledby={`history-${project.id}`}>
            <h3 id={`history-${project.id}`}>Status history</h3>
            {project.history.length === 0 ? (
              <p className="muted">Created as {humanize(project.status)}; no status change yet.</p>
            ) : (
              <ol className="plain-list timeline" aria-label="Status history">
                {[...project.history].reverse().map((e) => (
                  <li key={e.id}>
                    <strong>
                      {humanize(e.previousProjectStatus)} → {humanize(e.projectStatus)}
                    </strong>{' '}
                    <span className="muted">{formatDateTime(e.createdAt)}</span>
                    {e.comment && <p className="history-comment">“{e.comment}”</p>}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      )}
      {editing && project && details && (
        <ProjectFormDialog
          project={{ id: project.id, details }}
          organizations={organizations}
          organizationTypes={organizationTypes}
          onClose={() => setEditing(false)}
        />
      )}
      {changeTo && project && (
        <StatusChangeDialog
          projectId={project.id}
          name={project.fullName}
          from={project.status}
          to={changeTo}
          onClose={() => setChangeTo(null)}
        />
      )}
    </DetailsPanel>
  );
}

// Projects: the searchable, filterable list of every project, or one project's page.
import { useNavigation } from '@renderer/stores/navigation';
import { useProjectList } from '@renderer/stores/projects';
import { useListOfLatestSync } from '@renderer/lib/useListOfLatestSync';
import { ProjectPage } from './ProjectPage';
import { ProjectSearchBar } from './ProjectSearchBar';
import { ProjectFilters } from './ProjectFilters';
import { ProjectTable } from './ProjectTable';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { toSearchInput } from '@renderer/stores/projects';
import { formatListTotal } from '@renderer/lib/format';

const PROJECTS = { one: 'project', other: 'projects' };

function ProjectListView() {
  const query = useProjectList((s) => s.query);
  const total = useProjectList((s) => s.total);
  const totalIsLowerBound = useProjectList((s) => s.totalIsLowerBound);
  const extent = useProjectList((s) => s.extent);
  useListOfLatestSync(useProjectList);
  return (
    <div className="screen screen-fill">
      <header className="screen-header">
        <div>
          <h1>Projects</h1>
          <p className="screen-subtitle" aria-live="polite">
            {total === null ? 'Loading projects…' : formatListTotal({ total, totalIsLowerBound, extent }, PROJECTS)}
          </p>
        </div>
        <ExportCsvButton request={{ list: 'projects', search: toSearchInput(query, 0, 500) }} disabled={!total} />
      </header>
      <ProjectSearchBar />
      <ProjectFilters />
      <ProjectTable />
    </div>
  );
}

export function ProjectsScreen() {
  const projectId = useNavigation((s) => s.projectId);
  return projectId ? <ProjectPage id={projectId} /> : <ProjectListView />;
}

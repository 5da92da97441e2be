// Projects: the searchable, filterable list of every project, or one project's page.
import { useEffect } from 'react';
import { useNavigation } from '../../stores/navigation';
import { useProjectList } from '../../stores/projects';
import { useSync } from '../../stores/sync';
import { ProjectPage } from './ProjectPage';
import { ProjectSearchBar } from './ProjectSearchBar';
import { ProjectFilters } from './ProjectFilters';
import { ProjectTable } from './ProjectTable';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { toSearchInput } from '../../stores/projects';
import { formatTotal } from '../../lib/format';

const PROJECTS = { one: 'project', other: 'projects' };

/** "2,345 projects"; past a lower bound "10,000+ projects", until scrolling to the end found the exact number. */
function projectCount(total: number, isLowerBound: boolean, exactRows: number | null): string {
  if (isLowerBound && exactRows !== null) return formatTotal(exactRows, PROJECTS);
  return formatTotal(total, PROJECTS, isLowerBound);
}

/** The sync generation the list was last loaded for. */
let loadedDataVersion = -1;

function ProjectListView() {
  const dataVersion = useSync((s) => s.dataVersion);
  const query = useProjectList((s) => s.query);
  const total = useProjectList((s) => s.total);
  const totalIsLowerBound = useProjectList((s) => s.totalIsLowerBound);
  const extent = useProjectList((s) => s.extent);
  useEffect(() => {
    // First visit, or a sync brought new data since the list was loaded: (re)load it with the query
    // as it is. Coming back from a project page keeps the rows (and the scroll position) as they were.
    if (loadedDataVersion !== dataVersion) {
      loadedDataVersion = dataVersion;
      useProjectList.getState().refresh({ keepRows: true });
    }
  }, [dataVersion]);
  return (
    <div className="screen screen-fill">
      <header className="screen-header">
        <div>
          <h1>Projects</h1>
          <p className="screen-subtitle" aria-live="polite">
            {total === null ? 'Loading projects…' : projectCount(total, totalIsLowerBound, extent.exact ? extent.rows : null)}
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

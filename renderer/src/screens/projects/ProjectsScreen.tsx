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
import { formatCount } from '../../lib/format';

/** The sync generation the list was last loaded for. */
let loadedDataVersion = -1;

function ProjectListView() {
  const dataVersion = useSync((s) => s.dataVersion);
  const query = useProjectList((s) => s.query);
  const total = useProjectList((s) => s.total);
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
            {total === null ? 'Loading projects…' : `${formatCount(total)} project${total === 1 ? '' : 's'}`}
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

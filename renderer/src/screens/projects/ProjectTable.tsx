// The virtualized project table: only the rows in view (plus a few) are in the DOM, and the pages
// they fall in are fetched as the user scrolls, so 10,000+ projects scroll smoothly (past a
// lower-bound count too: the list reaches on as pages are read). Column headers sort the list.
import { useEffect } from 'react';
import { useVirtualPagedRows } from '@renderer/lib/useVirtualPagedRows';
import { VirtualRowGroup } from '@renderer/components/VirtualRowGroup';
import { useVirtualRowKeys } from '@renderer/lib/rowKeyboard';
import type { ProjectRow } from '@shared/desk/api';
import { rowAt, useProjectList, type ProjectSortField } from '@renderer/stores/projects';
import { useNavigation } from '@renderer/stores/navigation';
import { announce, setPageState } from '@renderer/lib/signals';
import { countryName, formatDay } from '@renderer/lib/format';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { SortableGridHead, type SortableColumn } from '@renderer/components/SortControls';

const ROW_HEIGHT = 52;
const COLUMNS: SortableColumn<ProjectSortField>[] = [
  { label: 'No.', sort: 'num' },
  { label: 'Project', sort: 'name' },
  { label: 'Status', sort: 'status' },
  { label: 'Country', sort: 'country' },
  { label: 'Sector' },
  { label: 'Methodology' },
  { label: 'Type' },
  { label: 'Proponents' },
  // Dates start newest first.
  { label: 'Start', sort: 'startDate', first: 'desc' },
];

function ProjectTableHead() {
  const sort = useProjectList((s) => s.query.sort);
  const setQuery = useProjectList((s) => s.setQuery);
  return <SortableGridHead columns={COLUMNS} sort={sort} onSort={(next) => setQuery({ sort: next })} />;
}

/** Each cell carries its full text as a tooltip: a narrow window clips it with an ellipsis. */
function ProjectCells({ row }: { row: ProjectRow }) {
  const country = countryName(row.countryCode);
  const started = formatDay(row.startDate);
  return (
    <>
      <span role="cell" className="cell-num" title={row.num}>
        {row.num}
      </span>
      <span role="cell" className="cell-title" title={`${row.fullName}\n${row.shortDescription}`}>
        <span className="cell-primary">{row.fullName}</span>
        <span className="cell-secondary">{row.shortDescription}</span>
      </span>
      <span role="cell">
        <StatusBadge value={row.status} />
      </span>
      <span role="cell" title={country}>
        {country}
      </span>
      <span role="cell" title={row.sector}>
        {row.sector}
      </span>
      <span role="cell" className="cell-clip" title={row.methodology}>
        {row.methodology}
      </span>
      <span role="cell" title={row.type}>
        {row.type}
      </span>
      <span role="cell" className="cell-clip" title={row.proponents}>
        {row.proponents}
      </span>
      <span role="cell" className="nowrap" title={started}>
        {started}
      </span>
    </>
  );
}

export function ProjectTable() {
  const total = useProjectList((s) => s.total);
  const totalIsLowerBound = useProjectList((s) => s.totalIsLowerBound);
  const pages = useProjectList((s) => s.pages);
  const generation = useProjectList((s) => s.generation);
  const loadedGeneration = useProjectList((s) => s.loadedGeneration);
  const dataVersion = useProjectList((s) => s.dataVersion);
  const error = useProjectList((s) => s.error);
  const queryText = useProjectList((s) => s.query.text);
  const openProject = useNavigation((s) => s.openProject);

  const rows = useVirtualPagedRows(useProjectList, { rowHeight: ROW_HEIGHT, overscan: 12 });
  const { scrollRef, virtualizer, items, extent } = rows;
  const keys = useVirtualRowKeys(rows);

  // Announce the first rows of each search once they are on screen (tests and the bench wait on it),
  // and only once they are its own: after a sync the previous rows stay on screen until the fresh ones land.
  const firstPageShown = pages[0] !== undefined;
  useEffect(() => {
    if (total === null || loadedGeneration !== generation || (!firstPageShown && total > 0)) return;
    setPageState('projectsQuery', queryText);
    setPageState('projectsTotal', String(total));
    setPageState('projectsTotalIsLowerBound', String(totalIsLowerBound));
    setPageState('projectsGeneration', String(generation));
    setPageState('projectsDataVersion', String(dataVersion));
    announce('desk:projects-loaded', { query: queryText, total, totalIsLowerBound, generation, dataVersion });
  }, [generation, loadedGeneration, dataVersion, firstPageShown, total, totalIsLowerBound, queryText]);

  // The table (and its header, where focus may be after sorting) stays while a new search loads.
  const loading = total === null && !error;
  return (
    // The loading, empty and error messages sit beside the table, not in it: a role="table" holds rows only.
    <div className="table table-projects">
      {/* aria-rowcount -1: the number of rows is not known yet (loading, or past a lower-bound count). */}
      <div
        className="table-grid"
        role="table"
        aria-label="Projects"
        aria-busy={loading}
        aria-rowcount={extent.exact ? extent.rows + 1 : -1}
      >
        <ProjectTableHead />
        {total !== 0 && (
          <VirtualRowGroup
            scrollRef={scrollRef}
            virtualizer={virtualizer}
            items={items}
            rowHeight={ROW_HEIGHT}
            rowAt={(index) => rowAt({ pages }, index)}
            cells={(row) => <ProjectCells row={row} />}
            onOpen={(row) => openProject(row.id)}
            rowId={(row) => row.id}
            keys={keys}
          />
        )}
      </div>
      <ErrorMessage error={error} onRetry={() => useProjectList.getState().refresh()} />
      {loading && <Loading label="Loading projects…" />}
      {total === 0 && !error && <EmptyState title="No projects match">Try other words or clear some filters.</EmptyState>}
    </div>
  );
}

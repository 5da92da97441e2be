// The virtualized project table: only the rows in view (plus a few) are in the DOM, and the pages
// they fall in are fetched as the user scrolls, so 10,000+ projects scroll smoothly.
import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ProjectRow } from '../../../../shared/desk/api';
import { rowAt, useProjectList } from '../../stores/projects';
import { useNavigation } from '../../stores/navigation';
import { announce, setPageState } from '../../lib/signals';
import { countryName, formatDate } from '../../lib/format';
import { StatusBadge } from '../../components/StatusBadge';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback';

const ROW_HEIGHT = 52;
const COLUMNS = ['No.', 'Project', 'Status', 'Country', 'Sector', 'Methodology', 'Type', 'Proponents', 'Start'];

function ProjectCells({ row }: { row: ProjectRow }) {
  return (
    <>
      <span role="cell" className="cell-num">
        {row.num}
      </span>
      <span role="cell" className="cell-title">
        <span className="cell-primary">{row.fullName}</span>
        <span className="cell-secondary">{row.shortDescription}</span>
      </span>
      <span role="cell">
        <StatusBadge value={row.status} />
      </span>
      <span role="cell">{countryName(row.countryCode)}</span>
      <span role="cell">{row.sector}</span>
      <span role="cell" className="cell-clip" title={row.methodology}>
        {row.methodology}
      </span>
      <span role="cell">{row.type}</span>
      <span role="cell" className="cell-clip" title={row.proponents}>
        {row.proponents}
      </span>
      <span role="cell">{formatDate(row.startDate)}</span>
    </>
  );
}

export function ProjectTable() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const total = useProjectList((s) => s.total);
  const pages = useProjectList((s) => s.pages);
  const generation = useProjectList((s) => s.generation);
  const queryGeneration = useProjectList((s) => s.queryGeneration);
  const error = useProjectList((s) => s.error);
  const queryText = useProjectList((s) => s.query.text);
  const openProject = useNavigation((s) => s.openProject);

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (total !== null && total > 0) useProjectList.getState().ensureRows(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, total, generation]);

  // A new search starts at the top.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [queryGeneration]);

  // Announce the first rows of each search once they are on screen (tests and the bench wait on it).
  const firstPageShown = pages[0] !== undefined;
  useEffect(() => {
    if (total === null || (!firstPageShown && total > 0)) return;
    setPageState('projectsQuery', queryText);
    setPageState('projectsTotal', String(total));
    setPageState('projectsGeneration', String(generation));
    announce('desk:projects-loaded', { query: queryText, total, generation });
  }, [generation, firstPageShown, total, queryText]);

  if (total === null && !error) return <Loading label="Loading projects…" />;
  return (
    <div className="table table-projects" role="table" aria-label="Projects" aria-rowcount={(total ?? 0) + 1}>
      <div role="rowgroup" className="table-head">
        <div role="row" className="table-row" aria-rowindex={1}>
          {COLUMNS.map((name) => (
            <span key={name} role="columnheader">
              {name}
            </span>
          ))}
        </div>
      </div>
      <ErrorMessage error={error} onRetry={() => useProjectList.getState().refresh()} />
      {total === 0 && !error ? (
        <EmptyState title="No projects match">Try other words or clear some filters.</EmptyState>
      ) : (
        <div ref={scrollRef} className="table-scroll" role="rowgroup">
          <div className="table-spacer" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rowAt({ pages }, item.index);
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className={row ? 'table-row table-row-link' : 'table-row table-row-placeholder'}
                  style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                  tabIndex={row ? 0 : -1}
                  onClick={row ? () => openProject(row.id) : undefined}
                  onKeyDown={(event) => {
                    if (row && (event.key === 'Enter' || event.key === ' ')) {
                      event.preventDefault();
                      openProject(row.id);
                    }
                  }}
                >
                  {row ? (
                    <ProjectCells row={row} />
                  ) : (
                    <span role="cell" className="cell-loading">
                      Loading…
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}

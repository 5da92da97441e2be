// The virtualized credit table of one account: only the rows in view (plus a few) are in the DOM,
// and the pages they fall in are fetched as the user scrolls, so tens of thousands of credits
// scroll smoothly (past a lower-bound count too). Column headers sort the list; a project's name
// opens the project.
import { useEffect } from 'react';
import { useVirtualPagedRows } from '@renderer/lib/useVirtualPagedRows';
import { VirtualRowGroup } from '@renderer/components/VirtualRowGroup';
import { useVirtualRowKeys } from '@renderer/lib/rowKeyboard';
import type { InventoryCreditRow } from '@shared/desk/api';
import { useNavigation } from '@renderer/stores/navigation';
import { setPageState } from '@renderer/lib/signals';
import { creditTypeLabel, formatTonnesValue } from '@renderer/lib/format';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { SortableGridHead, type SortableColumn } from '@renderer/components/SortControls';
import { currentQuery, inventoryRowAt, useInventoryList, type InventoryAccount, type InventorySort } from './inventoryList';

const ROW_HEIGHT = 52;

export const ACCOUNT_LABELS: Record<InventoryAccount, string> = {
  buffer: 'Buffer',
  adjustment: 'Adjustment',
  organization: 'Organization',
};

const COLUMNS: SortableColumn<InventorySort['field']>[] = [
  { label: 'Project', sort: 'project' },
  { label: 'Serialization', sort: 'serialization' },
  { label: 'Vintage', sort: 'vintage', first: 'desc' },
  { label: 'Type', sort: 'type' },
  // Quantities start largest first.
  { label: 'Amount', sort: 'amount', first: 'desc', numeric: true },
  { label: 'Supply', sort: 'supply', first: 'desc', numeric: true },
  { label: 'Token' },
];

/** The moment a list's first rows are on screen (tests and the bench wait on it). */
export const INVENTORY_LOADED_EVENT = 'desk:inventory-loaded';

function InventoryTableHead() {
  const sort = useInventoryList((s) => currentQuery(s).sort);
  const setQuery = useInventoryList((s) => s.setQuery);
  return <SortableGridHead columns={COLUMNS} sort={sort} onSort={(next) => setQuery({ sort: next })} />;
}

function CreditCells({ row, onOpenProject }: { row: InventoryCreditRow; onOpenProject: (id: string) => void }) {
  return (
    <>
      <span role="cell" className="cell-title">
        <button
          type="button"
          className="button-link cell-primary inventory-project"
          title={`Open ${row.projectName}`}
          onClick={() => onOpenProject(row.projectId)}
        >
          {row.projectName}
        </button>
        <span className="cell-secondary">No. {row.projectNum}</span>
      </span>
      <span role="cell" className="mono" title={row.serialization}>
        {row.serialization}
      </span>
      <span role="cell">{row.vintage}</span>
      <span role="cell">{creditTypeLabel(row.type)}</span>
      <span role="cell" className="numeric">
        {formatTonnesValue(row.amount)}
      </span>
      <span role="cell" className="numeric">
        {formatTonnesValue(row.supply)}
        {row.unit !== 'tonne' ? ` ${row.unit}` : ''}
      </span>
      <span role="cell" className="mono" title={`${row.tokenAddress} #${row.tokenId}`}>
        #{row.tokenId}
      </span>
    </>
  );
}

export function InventoryTable({ accountHoldsCredits }: { accountHoldsCredits: boolean }) {
  const account = useInventoryList((s) => s.account);
  const total = useInventoryList((s) => s.total);
  const totalIsLowerBound = useInventoryList((s) => s.totalIsLowerBound);
  const pages = useInventoryList((s) => s.pages);
  const generation = useInventoryList((s) => s.generation);
  const loadedGeneration = useInventoryList((s) => s.loadedGeneration);
  const dataVersion = useInventoryList((s) => s.dataVersion);
  const error = useInventoryList((s) => s.error);
  const query = useInventoryList((s) => currentQuery(s));
  const openProject = useNavigation((s) => s.openProject);

  const rows = useVirtualPagedRows(useInventoryList, { rowHeight: ROW_HEIGHT, overscan: 12 });
  const { scrollRef, virtualizer, items, extent } = rows;
  const keys = useVirtualRowKeys(rows);

  // Announce each list once its own first rows are on screen (or it is known to be empty); after a
  // sync the previous rows stay on screen until the fresh ones land, and are not announced again.
  const firstPageShown = pages[0] !== undefined;
  useEffect(() => {
    if (total === null || loadedGeneration !== generation || (!firstPageShown && total > 0)) return;
    const detail = {
      account,
      query: query.text.trim(),
      vintage: query.filters.vintage ?? '',
      type: query.filters.type ?? '',
      sort: `${query.sort.field} ${query.sort.direction}`,
      total,
      totalIsLowerBound,
      generation,
      dataVersion,
    };
    setPageState('inventoryAccount', account);
    setPageState('inventoryQuery', detail.query);
    setPageState('inventoryTotal', String(total));
    setPageState('inventoryTotalIsLowerBound', String(totalIsLowerBound));
    setPageState('inventoryGeneration', String(generation));
    setPageState('inventoryDataVersion', String(dataVersion));
    window.dispatchEvent(new CustomEvent(INVENTORY_LOADED_EVENT, { detail }));
  }, [generation, loadedGeneration, dataVersion, firstPageShown, total, totalIsLowerBound, account, query]);

  if (total === null && !error) return <Loading label="Loading credits…" />;
  const label = `${ACCOUNT_LABELS[account]} credits`;
  // An account that holds nothing has no table at all; otherwise the messages sit beside the table,
  // not in it: a role="table" holds rows only.
  if (total === 0 && !error && !accountHoldsCredits)
    return <EmptyState title={`The ${ACCOUNT_LABELS[account].toLowerCase()} account holds no credits`} />;
  return (
    <div className="table table-inventory">
      {/* aria-rowcount -1: the number of rows is not known yet (past a lower-bound count). */}
      <div className="table-grid" role="table" aria-label={label} aria-rowcount={extent.exact ? extent.rows + 1 : -1}>
        <InventoryTableHead />
        {total !== 0 && (
          <VirtualRowGroup
            scrollRef={scrollRef}
            virtualizer={virtualizer}
            items={items}
            rowHeight={ROW_HEIGHT}
            rowAt={(index) => inventoryRowAt(pages, index)}
            cells={(row) => <CreditCells row={row} onOpenProject={openProject} />}
            keys={keys}
          />
        )}
      </div>
      <ErrorMessage error={error} onRetry={() => useInventoryList.getState().refresh()} />
      {total === 0 && !error && <EmptyState title="No credits match">Try other words or clear the filters.</EmptyState>}
    </div>
  );
}

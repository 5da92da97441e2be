// Retirements: search, filter and sort the list (column headers), open one for its details,
// download certificates (one or all selected), and finalize unclaimed on-chain retirements by
// signing with the owner's wallet.
import { useVirtualPagedRows } from '@renderer/lib/useVirtualPagedRows';
import { useListOfLatestSync } from '@renderer/lib/useListOfLatestSync';
import type { RetirementRow } from '@shared/desk/api';
import { useVirtualRowKeys } from '@renderer/lib/rowKeyboard';
import { formatDate, formatListTotal, formatTonnesValue } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import {
  retirementAt,
  SELECT_ALL_LIMIT,
  toRetirementSearch,
  useRetirementList,
  type RetirementSortField,
} from '@renderer/stores/retirements';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { ariaSort, SortButton, type SortDirection } from '@renderer/components/SortControls';
import { RetirementDetails } from './RetirementDetails';
import { CertificateDownloads } from './CertificateDownloads';
import { RetirementToolbar } from './RetirementToolbar';

const ROW_HEIGHT = 56;
const COLUMN_COUNT = 7;

const RETIREMENTS = { one: 'retirement', other: 'retirements' };

type SortableField = Exclude<RetirementSortField, 'relevance'>;

function SortableHeader({
  field,
  label,
  first,
  className,
}: {
  field: SortableField;
  label: string;
  first: SortDirection;
  className?: string;
}) {
  const sort = useRetirementList((s) => s.query.sort);
  const setQuery = useRetirementList((s) => s.setQuery);
  return (
    <th scope="col" className={className} aria-sort={ariaSort(sort, field)}>
      <SortButton field={field} label={label} sort={sort} firstDirection={first} onSort={(next) => setQuery({ sort: next })} />
    </th>
  );
}

/** The header checkbox: every claimed retirement listed (up to SELECT_ALL_LIMIT), or none. */
function SelectAllRetirements() {
  const count = useRetirementList((s) => Object.keys(s.selected).length);
  const total = useRetirementList((s) => s.total);
  const claimedFilter = useRetirementList((s) => s.query.claimed);
  const selectAll = useRetirementList((s) => s.selectAll);
  return (
    <input
      type="checkbox"
      aria-label={count > 0 ? 'Clear the selection' : 'Select all claimed retirements listed'}
      title={`Selects the first ${SELECT_ALL_LIMIT} claimed retirements at most`}
      checked={count > 0 && total !== null && count >= Math.min(total, SELECT_ALL_LIMIT)}
      ref={(el) => {
        if (el) el.indeterminate = count > 0 && (total === null || count < Math.min(total, SELECT_ALL_LIMIT));
      }}
      disabled={!total || claimedFilter === 'unclaimed'}
      onChange={() => void selectAll()}
    />
  );
}

/**
 * `tabIndex` 0 makes it the list's one Tab stop (with its checkbox and name); Enter on the row opens
 * its details, Space ticks it (Shift+Space: the range from the last one ticked).
 */
function RetirementTableRow({ row, index, tabIndex }: { row: RetirementRow | undefined; index: number; tabIndex: number }) {
  const current = useNavigation((s) => s.retirementId === row?.id);
  const openRetirement = useNavigation((s) => s.openRetirement);
  const checked = useRetirementList((s) => (row ? Boolean(s.selected[row.id]) : false));
  const clickSelected = useRetirementList((s) => s.clickSelected);
  // Only the active row's controls are Tab stops.
  const controlTabIndex = tabIndex === 0 ? undefined : -1;
  if (!row) {
    return (
      <tr aria-rowindex={index + 2} className="row-placeholder" tabIndex={tabIndex}>
        <td colSpan={COLUMN_COUNT} className="muted">
          Loading…
        </td>
      </tr>
    );
  }
  return (
    <tr
      aria-rowindex={index + 2}
      data-retirement-id={row.id}
      aria-selected={current}
      className={current ? 'row-current' : undefined}
      tabIndex={tabIndex}
      onClick={() => openRetirement(row.id)}
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Enter') {
          event.preventDefault();
          openRetirement(row.id);
        } else if (event.key === ' ') {
          event.preventDefault();
          if (row.isClaimed) clickSelected(row.id, event.shiftKey);
        }
      }}
    >
      <td onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          aria-label={`Select retirement of ${formatTonnesValue(row.amount)} for ${row.beneficiary ?? 'an unclaimed owner'}`}
          checked={checked}
          disabled={!row.isClaimed}
          title={row.isClaimed ? undefined : 'No certificate until the owner finalizes it'}
          readOnly
          tabIndex={controlTabIndex}
          onClick={(event) => clickSelected(row.id, event.shiftKey)}
        />
      </td>
      <td title={formatDate(row.createdAt)}>{formatDate(row.createdAt)}</td>
      <td title={[row.beneficiary ?? 'Unclaimed', row.organizationName].filter(Boolean).join('\n')}>
        <button type="button" className="button-link" tabIndex={controlTabIndex} onClick={() => openRetirement(row.id)}>
          {row.beneficiary ?? 'Unclaimed'}
        </button>
        {row.organizationName && <span className="cell-secondary">{row.organizationName}</span>}
      </td>
      <td title={row.projectName}>
        {row.projectName}
        <span className="cell-secondary">No. {row.projectNum}</span>
      </td>
      <td>{row.vintage ?? '—'}</td>
      <td className="numeric">{formatTonnesValue(row.amount)}</td>
      <td>
        <StatusBadge value={row.isClaimed ? 'claimed' : 'unclaimed'} />
      </td>
    </tr>
  );
}

/**
 * The virtualized retirement table: a real table whose rows in view (plus a few) are in the DOM,
 * between two spacer rows standing for the rest; the pages they fall in are fetched as the user
 * scrolls, so 100,000 retirements scroll smoothly. The header stays in view.
 */
function RetirementTable() {
  const total = useRetirementList((s) => s.total);
  const pages = useRetirementList((s) => s.pages);
  const error = useRetirementList((s) => s.error);

  const rows = useVirtualPagedRows(useRetirementList, { rowHeight: ROW_HEIGHT, overscan: 10 });
  const { scrollRef, virtualizer, items, extent } = rows;
  const keys = useVirtualRowKeys(rows);

  // The table (and its header, where focus may be after sorting) stays while a new search loads.
  if (total === null && error) return null;
  // A spacer row stands for each run of rows not drawn: before, after, and around the active row kept drawn far away.
  const drawn: React.ReactNode[] = [];
  let end = 0;
  const spacer = (key: string, height: number) =>
    height > 0 && (
      <tr key={key} className="spacer-row" aria-hidden="true">
        <td colSpan={COLUMN_COUNT} style={{ height }} />
      </tr>
    );
  for (const item of items) {
    drawn.push(spacer(`gap-${item.index}`, item.start - end));
    drawn.push(
      <RetirementTableRow
        key={item.key}
        row={retirementAt({ pages }, item.index)}
        index={item.index}
        tabIndex={keys.tabIndexOf(item.index)}
      />,
    );
    end = item.end;
  }
  if (items.length > 0) drawn.push(spacer('gap-end', virtualizer.getTotalSize() - end));
  return (
    <div ref={scrollRef} className="table-wrap virtual-table-scroll">
      {/* aria-rowcount -1: the number of rows is not known yet (loading, or past a lower-bound count). */}
      <table
        className="simple-table selectable virtual-table"
        aria-label="Retirements"
        aria-busy={total === null}
        aria-rowcount={extent.exact ? extent.rows + 1 : -1}
      >
        <colgroup>
          <col className="col-select" />
          <col className="col-date" />
          <col className="col-beneficiary" />
          <col className="col-project" />
          <col className="col-vintage" />
          <col className="col-amount" />
          <col className="col-claim" />
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">
              <SelectAllRetirements />
            </th>
            {/* Dates and amounts start newest / largest first; names A to Z. */}
            <SortableHeader field="createdAt" label="Date" first="desc" />
            <SortableHeader field="beneficiary" label="Beneficiary" first="asc" />
            <SortableHeader field="project" label="Project" first="asc" />
            <th scope="col">Vintage</th>
            <SortableHeader field="amount" label="Amount" first="desc" className="numeric" />
            <th scope="col">Claim</th>
          </tr>
        </thead>
        <tbody onKeyDown={keys.onKeyDown} onFocus={keys.onFocus}>
          {total === null && (
            <tr className="row-message">
              <td colSpan={COLUMN_COUNT}>
                <Loading label="Loading retirements…" />
              </td>
            </tr>
          )}
          {total === 0 && !error && (
            <tr className="row-message">
              <td colSpan={COLUMN_COUNT}>
                <EmptyState title="No retirements match">Try other words or another filter.</EmptyState>
              </td>
            </tr>
          )}
          {drawn}
        </tbody>
      </table>
    </div>
  );
}

export function RetirementsScreen() {
  const total = useRetirementList((s) => s.total);
  const totalIsLowerBound = useRetirementList((s) => s.totalIsLowerBound);
  const extent = useRetirementList((s) => s.extent);
  const error = useRetirementList((s) => s.error);
  const query = useRetirementList((s) => s.query);
  const retirementId = useNavigation((s) => s.retirementId);
  useListOfLatestSync(useRetirementList);
  return (
    <div className="screen screen-fill">
      <header className="screen-header">
        <div>
          <h1>Retirements</h1>
          <p className="screen-subtitle" aria-live="polite">
            {total === null ? 'Loading retirements…' : formatListTotal({ total, totalIsLowerBound, extent }, RETIREMENTS)}
          </p>
        </div>
        <div className="header-actions">
          <CertificateDownloads />
          <ExportCsvButton request={{ list: 'retirements', search: toRetirementSearch(query, 0, 500) }} disabled={!total} />
        </div>
      </header>
      <RetirementToolbar />
      <ErrorMessage error={error} onRetry={() => useRetirementList.getState().refresh()} />
      <div className={retirementId ? 'retirements-body split' : 'retirements-body'}>
        <RetirementTable />
        {retirementId && <RetirementDetails id={retirementId} />}
      </div>
    </div>
  );
}

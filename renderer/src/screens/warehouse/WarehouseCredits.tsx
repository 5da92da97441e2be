// The warehouse inventory with the inventories' list: search as you type, vintage and type filters
// with counts (under the search and the other filter), sortable columns, the count and total of what
// is listed, its CSV, and multi-select (shift-click ranges, select all) to reserve several credits at
// once. The warehouse is read live and whole, so the list is narrowed here (shared/desk/warehouse-list.ts,
// which the CSV export applies too).
import { useMemo, useState } from 'react';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import type { WarehouseView } from '@shared/desk/api';
import {
  creditVintage,
  DEFAULT_WAREHOUSE_QUERY,
  listWarehouseCredits,
  totalGrams,
  warehouseFacets,
  type WarehouseCreditQuery,
  type WarehouseFilterKey,
} from '@shared/desk/warehouse-list';
import { gramsToTonnes } from '@shared/registry/amounts';
import { formatCount, formatTonnesValue } from '@renderer/lib/format';
import { clickRow, EMPTY_SELECTION, keepListed, type RangeSelection } from '@renderer/lib/rangeSelection';
import { useRowKeyboard } from '@renderer/lib/rowKeyboard';
import { FacetFilters } from '@renderer/components/FacetFilters';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { EmptyState } from '@renderer/components/feedback';
import { ariaSort, SortButton } from '@renderer/components/SortControls';
import { MOD_LABEL } from '@renderer/components/Sidebar';
import { ActionsColumnHead } from '@renderer/components/ColumnHeads';
import { COLUMNS, SelectAll, typeLabel } from './WarehouseCreditsTable';

export function WarehouseCredits({
  view,
  onReserve,
  onReserveMany,
}: {
  view: WarehouseView;
  onReserve: (credit: WarehouseInventoryCredit) => void;
  onReserveMany: (credits: WarehouseInventoryCredit[], done: () => void) => void;
}) {
  const [query, setQuery] = useState<WarehouseCreditQuery>(DEFAULT_WAREHOUSE_QUERY);
  const [rawSelection, setSelection] = useState<RangeSelection>(EMPTY_SELECTION);
  const listed = useMemo(() => listWarehouseCredits(view.credits, query), [view.credits, query]);
  const facets = useMemo(() => warehouseFacets(view.credits, query), [view.credits, query]);
  const order = useMemo(() => listed.map((c) => c.id), [listed]);
  // Only what is listed stays selected (after a search, a filter or fresh data).
  const selection = keepListed(rawSelection, order);
  const chosen = listed.filter((c) => selection.selected.has(c.id));
  const reservable = chosen.filter((c) => c.amount > 0);
  const keyboard = useRowKeyboard();
  const narrowed = query.query.trim() !== '' || Object.values(query.filters).some(Boolean);

  if (view.credits.length === 0)
    return <EmptyState title="The warehouse is empty">Credits deposited by the organization appear here.</EmptyState>;

  const setFilter = (key: WarehouseFilterKey, value: string) =>
    setQuery((q) => ({ ...q, filters: { ...q.filters, [key]: value || undefined } }));
  const count = `${formatCount(listed.length)} ${listed.length === 1 ? 'credit' : 'credits'}`;
  return (
    <>
      <div className="inventory-toolbar" role="search">
        <input
          type="search"
          className="search-input"
          aria-label="Search warehouse credits"
          placeholder={`Search by project, project number or serialization…  (${MOD_LABEL}F)`}
          value={query.query}
          data-search-field
          aria-keyshortcuts="Control+F"
          onChange={(event) => setQuery((q) => ({ ...q, query: event.target.value }))}
        />
        <FacetFilters
          filters={[
            {
              key: 'vintage' as const,
              label: 'Vintage',
              all: 'Any vintage',
              values: facets.vintages.map((v) => ({ ...v, label: v.value })),
              describe: (v) => v.label,
            },
            {
              key: 'type' as const,
              label: 'Type',
              all: 'Any type',
              values: facets.types.map((v) => ({ ...v, label: v.value })),
              describe: (v) => typeLabel(v.value),
            },
          ]}
          selected={query.filters}
          loaded
          error={null}
          narrowed={narrowed}
          onChange={setFilter}
          onClear={() => setQuery((q) => ({ ...q, query: '', filters: {} }))}
          onRetry={() => undefined}
        />
      </div>
      <div className="inventory-list-header">
        <span className="inventory-count" aria-live="polite">
          {narrowed ? `${count} of ${formatCount(view.credits.length)} match` : count} ·{' '}
          {formatTonnesValue(gramsToTonnes(totalGrams(listed)))} available
        </span>
        <div className="header-actions">
          {view.canWrite && (
            <button
              type="button"
              className="button button-primary"
              disabled={reservable.length === 0 || view.offline}
              title={view.offline ? 'Reserving needs the registry' : undefined}
              onClick={() => onReserveMany(reservable, () => setSelection(EMPTY_SELECTION))}
            >
              {reservable.length > 0 ? `Reserve selected (${reservable.length})…` : 'Reserve selected…'}
            </button>
          )}
          <ExportCsvButton
            request={{ list: 'warehouse', organizationId: view.organizationId, ...query }}
            label="Export CSV"
            disabled={listed.length === 0}
          />
        </div>
      </div>
      {listed.length === 0 ? (
        <EmptyState title="No credits match">Try other words or clear the filters.</EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="simple-table table-warehouse" aria-label="Warehouse credits" aria-rowcount={listed.length + 1}>
            <thead>
              <tr>
                <th scope="col" className="col-select">
                  <SelectAll selection={selection} order={order} onChange={setSelection} />
                </th>
                {COLUMNS.map((c) => (
                  <th key={c.label} scope="col" className={c.numeric ? 'numeric' : undefined} aria-sort={ariaSort(query.sort, c.field)}>
                    {c.field ? (
                      <SortButton
                        field={c.field}
                        label={c.label}
                        sort={query.sort}
                        firstDirection={c.first}
                        onSort={(sort) => setQuery((q) => ({ ...q, sort }))}
                      />
                    ) : (
                      c.label
                    )}
                  </th>
                ))}
                <ActionsColumnHead />
              </tr>
            </thead>
            <tbody {...keyboard}>
              {listed.map((c) => {
                const checked = selection.selected.has(c.id);
                return (
                  <tr
                    key={c.id}
                    data-credit-id={c.id}
                    aria-selected={checked}
                    className={checked ? 'row-checked' : undefined}
                    tabIndex={-1}
                  >
                    {/* A row header, so the data cells are the list's columns. */}
                    <th scope="row" className="col-select">
                      <input
                        type="checkbox"
                        aria-label={`Select ${c.serialization}`}
                        checked={checked}
                        readOnly
                        onClick={(event) => setSelection(clickRow(selection, order, c.id, event.shiftKey))}
                      />
                    </th>
                    <td className="cell-clip" title={c.project.fullName}>
                      {c.project.fullName}
                      <span className="cell-secondary">No. {c.project.num}</span>
                    </td>
                    <td className="mono cell-clip" title={c.serialization}>
                      {c.serialization}
                    </td>
                    <td>{creditVintage(c) || '—'}</td>
                    <td className="numeric" title={formatTonnesValue(c.amount)}>
                      {formatTonnesValue(c.amount)}
                      {c.amount <= 0 && (c.reserved ?? 0) > 0 && <span className="cell-secondary">All reserved</span>}
                    </td>
                    <td className="numeric">{c.held === undefined ? '—' : formatTonnesValue(c.held)}</td>
                    <td>{typeLabel(c.type)}</td>
                    <td className="row-actions">
                      {view.canWrite && (
                        <button
                          type="button"
                          className="button button-small"
                          disabled={c.amount <= 0 || view.offline}
                          aria-label={`Reserve ${c.serialization}`}
                          onClick={() => onReserve(c)}
                        >
                          Reserve…
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

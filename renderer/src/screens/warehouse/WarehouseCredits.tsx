// The warehouse inventory with the inventories' list: search as you type, vintage and type filters
// with counts (under the search and the other filter), sortable columns, the count and total of what
// is listed, its CSV, and multi-select (shift-click ranges, select all) to reserve several credits at
// once. The warehouse is read live and whole, so the list is narrowed here (shared/desk/warehouse-list.ts,
// which the CSV export applies too).
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import type { WarehouseView } from '@shared/desk/api';
import { totalGrams, type WarehouseCreditQuery, type WarehouseFilterKey, type WarehouseFacetValue } from '@shared/desk/warehouse-list';
import { gramsToTonnes } from '@shared/registry/amounts';
import { creditTypeLabel, formatCount, formatTonnesValue } from '@renderer/lib/format';
import { EMPTY_SELECTION } from '@renderer/lib/rangeSelection';
import { FacetFilters } from '@renderer/components/FacetFilters';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { EmptyState } from '@renderer/components/feedback';
import { MOD_LABEL } from '@renderer/components/Sidebar';
import { WarehouseCreditsTable } from './WarehouseCreditsTable';
import { useWarehouseCreditList } from './useWarehouseCreditList';

function WarehouseCreditsSearch({
  query,
  facets,
  narrowed,
  onQuery,
  onFilter,
}: {
  query: WarehouseCreditQuery;
  facets: { vintages: WarehouseFacetValue[]; types: WarehouseFacetValue[] };
  narrowed: boolean;
  onQuery: (change: (q: WarehouseCreditQuery) => WarehouseCreditQuery) => void;
  onFilter: (key: WarehouseFilterKey, value: string) => void;
}) {
  return (
    <div className="inventory-toolbar" role="search">
      <input
        type="search"
        className="search-input"
        aria-label="Search warehouse credits"
        placeholder={`Search by project, project number or serialization…  (${MOD_LABEL}F)`}
        value={query.query}
        data-search-field
        aria-keyshortcuts="Control+F"
        onChange={(event) => onQuery((q) => ({ ...q, query: event.target.value }))}
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
            describe: (v) => creditTypeLabel(v.value),
          },
        ]}
        selected={query.filters}
        loaded
        error={null}
        narrowed={narrowed}
        onChange={onFilter}
        onClear={() => onQuery((q) => ({ ...q, query: '', filters: {} }))}
        onRetry={() => undefined}
      />
    </div>
  );
}

export function WarehouseCredits({
  view,
  onReserve,
  onReserveMany,
}: {
  view: WarehouseView;
  onReserve: (credit: WarehouseInventoryCredit) => void;
  onReserveMany: (credits: WarehouseInventoryCredit[], done: () => void) => void;
}) {
  const { query, setQuery, setFilter, narrowed, listed, facets, order, selection, setSelection, reservable } = useWarehouseCreditList(
    view.credits,
  );

  if (view.credits.length === 0)
    return <EmptyState title="The warehouse is empty">Credits deposited by the organization appear here.</EmptyState>;

  const count = `${formatCount(listed.length)} ${listed.length === 1 ? 'credit' : 'credits'}`;
  return (
    <>
      <WarehouseCreditsSearch query={query} facets={facets} narrowed={narrowed} onQuery={setQuery} onFilter={setFilter} />
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
        <WarehouseCreditsTable
          view={view}
          listed={listed}
          order={order}
          selection={selection}
          onSelect={setSelection}
          sort={query.sort}
          onSort={(sort) => setQuery((q) => ({ ...q, sort }))}
          onReserve={onReserve}
        />
      )}
    </>
  );
}

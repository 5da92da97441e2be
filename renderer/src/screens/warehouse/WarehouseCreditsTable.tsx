// The warehouse credits' table: a select-all box, sortable column heads, and a row a credit (its
// select box, what it is, what is available and held, and Reserve).
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import type { WarehouseView } from '@shared/desk/api';
import { creditVintage, type WarehouseCreditQuery, type WarehouseSortField } from '@shared/desk/warehouse-list';
import { creditTypeLabel, formatTonnesValue } from '@renderer/lib/format';
import { allState, clickRow, toggleAll, type RangeSelection } from '@renderer/lib/rangeSelection';
import { useRowKeyboard } from '@renderer/lib/rowKeyboard';
import { ariaSort, SortButton, type SortDirection } from '@renderer/components/SortControls';
import { ActionsColumnHead } from '@renderer/components/ColumnHeads';

export const COLUMNS: Array<{ label: string; field?: WarehouseSortField; first?: SortDirection; numeric?: boolean }> = [
  { label: 'Project', field: 'project' },
  { label: 'Serialization', field: 'serialization' },
  { label: 'Vintage', field: 'vintage', first: 'desc' },
  { label: 'Available', field: 'amount', first: 'desc', numeric: true },
  // What the warehouse holds (available + reserved), when the registry says.
  { label: 'Held', numeric: true },
  { label: 'Type', field: 'type' },
];

export function SelectAll({
  selection,
  order,
  onChange,
}: {
  selection: RangeSelection;
  order: string[];
  onChange: (s: RangeSelection) => void;
}) {
  const state = allState(selection, order);
  return (
    <input
      type="checkbox"
      aria-label="Select all listed credits"
      checked={state === 'all'}
      ref={(el) => {
        if (el) el.indeterminate = state === 'some';
      }}
      disabled={order.length === 0}
      onChange={() => onChange(toggleAll(selection, order))}
    />
  );
}

function WarehouseCreditRow({
  credit: c,
  view,
  checked,
  onClick,
  onReserve,
}: {
  credit: WarehouseInventoryCredit;
  view: WarehouseView;
  checked: boolean;
  /** The select box pressed (with shift: a range). */
  onClick: (shiftKey: boolean) => void;
  onReserve: (credit: WarehouseInventoryCredit) => void;
}) {
  return (
    <tr data-credit-id={c.id} aria-selected={checked} className={checked ? 'row-checked' : undefined} tabIndex={-1}>
      {/* A row header, so the data cells are the list's columns. */}
      <th scope="row" className="col-select">
        <input
          type="checkbox"
          aria-label={`Select ${c.serialization}`}
          checked={checked}
          readOnly
          onClick={(event) => onClick(event.shiftKey)}
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
      <td>{creditTypeLabel(c.type)}</td>
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
}

export function WarehouseCreditsTable({
  view,
  listed,
  order,
  selection,
  onSelect,
  sort,
  onSort,
  onReserve,
}: {
  view: WarehouseView;
  listed: WarehouseInventoryCredit[];
  /** The ids of what is listed, in order (for ranges and select all). */
  order: string[];
  selection: RangeSelection;
  onSelect: (selection: RangeSelection) => void;
  sort: WarehouseCreditQuery['sort'];
  onSort: (sort: WarehouseCreditQuery['sort']) => void;
  onReserve: (credit: WarehouseInventoryCredit) => void;
}) {
  const keyboard = useRowKeyboard();
  return (
    <div className="table-wrap">
      <table className="simple-table table-warehouse" aria-label="Warehouse credits" aria-rowcount={listed.length + 1}>
        <thead>
          <tr>
            <th scope="col" className="col-select">
              <SelectAll selection={selection} order={order} onChange={onSelect} />
            </th>
            {COLUMNS.map((c) => (
              <th key={c.label} scope="col" className={c.numeric ? 'numeric' : undefined} aria-sort={ariaSort(sort, c.field)}>
                {c.field ? <SortButton field={c.field} label={c.label} sort={sort} firstDirection={c.first} onSort={onSort} /> : c.label}
              </th>
            ))}
            <ActionsColumnHead />
          </tr>
        </thead>
        <tbody {...keyboard}>
          {listed.map((c) => (
            <WarehouseCreditRow
              key={c.id}
              credit={c}
              view={view}
              checked={selection.selected.has(c.id)}
              onClick={(shiftKey) => onSelect(clickRow(selection, order, c.id, shiftKey))}
              onReserve={onReserve}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

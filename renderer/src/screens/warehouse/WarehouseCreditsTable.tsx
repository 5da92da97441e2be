// The warehouse credits' table: a select-all box, sortable column heads, and a row a credit (its
// select box, what it is, what is available and held, and Reserve).
import type { WarehouseSortField } from '@shared/desk/warehouse-list';
import { humanize } from '@renderer/lib/format';
import { allState, toggleAll, type RangeSelection } from '@renderer/lib/rangeSelection';
import type { SortDirection } from '@renderer/components/SortControls';

export const COLUMNS: Array<{ label: string; field?: WarehouseSortField; first?: SortDirection; numeric?: boolean }> = [
  { label: 'Project', field: 'project' },
  { label: 'Serialization', field: 'serialization' },
  { label: 'Vintage', field: 'vintage', first: 'desc' },
  { label: 'Available', field: 'amount', first: 'desc', numeric: true },
  // What the warehouse holds (available + reserved), when the registry says.
  { label: 'Held', numeric: true },
  { label: 'Type', field: 'type' },
];

export const typeLabel = (type: string) => (type === 'exPost' ? 'Ex-post' : type === 'exAnte' ? 'Ex-ante' : humanize(type));

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

// Sorting a list from its column headers: a button inside the header cell (so it is reached and
// pressed with the keyboard), aria-sort on the header of the sorted column, and an arrow showing the
// direction. The first click on a column sorts it in its natural direction (names A→Z, dates newest
// first), a second click reverses. While a search is typed, "Sort by relevance" is the one other
// choice; any column header leaves it.

export type SortDirection = 'asc' | 'desc';
export interface ListSort<F extends string> {
  field: F;
  direction: SortDirection;
}

/** The sort after a click on `field`'s header. */
export function nextSort<F extends string>(current: ListSort<F>, field: F, firstDirection: SortDirection = 'asc'): ListSort<F> {
  if (current.field === field) return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { field, direction: firstDirection };
}

/** The header's aria-sort: only the sorted column carries it. */
export function ariaSort<F extends string>(sort: ListSort<F>, field: F | undefined): 'ascending' | 'descending' | undefined {
  if (field === undefined || sort.field !== field) return undefined;
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

export function SortButton<F extends string>({
  field,
  label,
  sort,
  firstDirection = 'asc',
  onSort,
}: {
  field: F;
  label: string;
  sort: ListSort<F>;
  firstDirection?: SortDirection;
  onSort: (sort: ListSort<F>) => void;
}) {
  const direction = sort.field === field ? sort.direction : null;
  return (
    <button
      type="button"
      className={direction ? 'sort-button sort-button-on' : 'sort-button'}
      title={direction ? `Sorted ${direction === 'asc' ? 'ascending' : 'descending'}: click to reverse` : `Sort by ${label.toLowerCase()}`}
      onClick={() => onSort(nextSort(sort, field, firstDirection))}
    >
      {label}
      <span className="sort-arrow" aria-hidden="true">
        {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
      </span>
    </button>
  );
}

export interface SortableColumn<F extends string> {
  label: string;
  /** The field its header sorts by; none for a column that cannot be sorted. */
  sort?: F;
  /** The direction of the first click (dates and amounts newest / largest first). */
  first?: SortDirection;
  numeric?: boolean;
}

/** The header row of a virtualized grid table (role="table" of divs) whose column headers sort it. */
export function SortableGridHead<F extends string>({
  columns,
  sort,
  onSort,
}: {
  columns: readonly SortableColumn<F>[];
  sort: ListSort<F>;
  onSort: (sort: ListSort<F>) => void;
}) {
  return (
    <div role="rowgroup" className="table-head">
      <div role="row" className="table-row" aria-rowindex={1}>
        {columns.map((column) => (
          <span
            key={column.label}
            role="columnheader"
            aria-sort={ariaSort(sort, column.sort)}
            className={column.numeric ? 'numeric' : undefined}
          >
            {column.sort ? (
              <SortButton field={column.sort} label={column.label} sort={sort} firstDirection={column.first} onSort={onSort} />
            ) : (
              column.label
            )}
          </span>
        ))}
      </div>
    </div>
  );
}

/**
 * "Sort by relevance": usable while a search is typed (the desk ranks matches only then). Pressed
 * while the list is in relevance order; pressing it again goes back to the list's default order.
 */
export function RelevanceToggle({
  active,
  available,
  onChange,
}: {
  active: boolean;
  available: boolean;
  onChange: (relevance: boolean) => void;
}) {
  return (
    <button
      type="button"
      className={active ? 'button button-small toggle toggle-on' : 'button button-small toggle'}
      aria-pressed={active && available}
      disabled={!available}
      title={available ? undefined : 'Type a search to sort its matches by relevance'}
      onClick={() => onChange(!active)}
    >
      Sort by relevance
    </button>
  );
}

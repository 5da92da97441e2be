// A list's filters: one select per facet, each value with how many rows it would leave (under the
// search and the other filters), "Clear filters" once any filter or a search narrows the list (it
// clears both), and an error line if the values could not be read.
import type { FacetValue } from '@shared/desk/api';
import { formatCount } from '../lib/format';
import { ErrorMessage } from './feedback';

export interface FacetFilter<Key extends string> {
  key: Key;
  label: string;
  /** The first option, standing for no filter ("Any vintage"). */
  all: string;
  /** The facet's values, once read. */
  values: readonly FacetValue[] | undefined;
  /** How a value reads in its option (before its count). */
  describe(value: FacetValue): string;
}

export function FacetFilters<Key extends string>(props: {
  filters: readonly FacetFilter<Key>[];
  selected: Partial<Record<Key, string>>;
  /** Whether the values have been read (until then a select without a choice is disabled). */
  loaded: boolean;
  error: unknown;
  /** A search narrows the list too: "Clear filters" then shows, and clears it as well. */
  narrowed?: boolean;
  onChange(key: Key, value: string): void;
  onClear(): void;
  onRetry(): void;
}) {
  const { filters, selected, loaded, error } = props;
  const anyFilter = Object.values(selected).some(Boolean) || props.narrowed === true;
  return (
    <div className="filters" aria-label="Filters" role="group">
      {filters.map(({ key, label, all, values, describe }) => (
        <label key={key} className="filter">
          <span>{label}</span>
          <select
            value={selected[key] ?? ''}
            onChange={(event) => props.onChange(key, event.target.value)}
            disabled={!loaded && !selected[key]}
          >
            <option value="">{all}</option>
            {(values ?? []).map((v) => (
              <option key={v.value} value={v.value}>
                {`${describe(v)} (${formatCount(v.count)})`}
              </option>
            ))}
          </select>
        </label>
      ))}
      {anyFilter && (
        <button type="button" className="button-link" onClick={props.onClear}>
          Clear filters
        </button>
      )}
      <ErrorMessage error={error ? `Filter values could not be loaded: ${(error as Error).message}` : null} onRetry={props.onRetry} />
    </div>
  );
}

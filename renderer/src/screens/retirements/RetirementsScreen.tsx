// Retirements: search and filter the list, open one for its details, download certificates (one or
// all selected), and finalize unclaimed on-chain retirements by signing with the owner's wallet.
import { useCallback, useEffect } from 'react';
import { useSearchText } from '../../lib/hooks';
import { formatCount, formatDate, formatTonnesValue } from '../../lib/format';
import { useNavigation } from '../../stores/navigation';
import { useRetirementList, toRetirementSearch, type ClaimFilter, type RetirementSortField } from '../../stores/retirements';
import { useSync } from '../../stores/sync';
import { StatusBadge } from '../../components/StatusBadge';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { MOD_LABEL } from '../../components/Sidebar';
import { RetirementDetails } from './RetirementDetails';
import { CertificateDownloads } from './CertificateDownloads';

let loadedDataVersion = -1;

function RetirementToolbar() {
  const query = useRetirementList((s) => s.query);
  const setQuery = useRetirementList((s) => s.setQuery);
  const apply = useCallback((text: string) => setQuery({ text }), [setQuery]);
  const [text, setText] = useSearchText(query.text, () => useRetirementList.getState().query.text, apply);
  return (
    <div className="toolbar" role="search">
      <input
        type="search"
        className="search-input"
        aria-label="Search retirements"
        placeholder={`Search by beneficiary, project, serialization…  (${MOD_LABEL}F)`}
        value={text}
        data-search-field
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && text !== useRetirementList.getState().query.text) setQuery({ text });
        }}
      />
      <label className="inline-field">
        <span>Claim</span>
        <select value={query.claimed} onChange={(e) => setQuery({ claimed: e.target.value as ClaimFilter })}>
          <option value="all">All</option>
          <option value="claimed">Claimed</option>
          <option value="unclaimed">Unclaimed</option>
        </select>
      </label>
      <label className="inline-field">
        <span>Vintage</span>
        <input
          className="input-year"
          inputMode="numeric"
          placeholder="Any"
          maxLength={4}
          value={query.vintage}
          onChange={(e) => {
            const vintage = e.target.value.replace(/\D/g, '');
            if (vintage === '' || vintage.length === 4) setQuery({ vintage });
            else useRetirementList.setState((s) => ({ query: { ...s.query, vintage } }));
          }}
        />
      </label>
      <label className="inline-field">
        <span>Sort by</span>
        <select value={query.sort.field} onChange={(e) => setQuery({ sort: { ...query.sort, field: e.target.value as RetirementSortField } })}>
          <option value="createdAt">Date</option>
          <option value="amount">Amount</option>
          <option value="beneficiary">Beneficiary</option>
          <option value="project">Project</option>
          {query.text.trim() && <option value="relevance">Relevance</option>}
        </select>
      </label>
      <button
        type="button"
        className="button button-small"
        aria-label={query.sort.direction === 'asc' ? 'Sort ascending (switch to descending)' : 'Sort descending (switch to ascending)'}
        onClick={() => setQuery({ sort: { ...query.sort, direction: query.sort.direction === 'asc' ? 'desc' : 'asc' } })}
      >
        {query.sort.direction === 'asc' ? '↑ Asc' : '↓ Desc'}
      </button>
      {query.projectId && (
        <button type="button" className="button-link" onClick={() => setQuery({ projectId: null })}>
          Show all projects
        </button>
      )}
    </div>
  );
}

function RetirementTable() {
  const rows = useRetirementList((s) => s.rows);
  const total = useRetirementList((s) => s.total);
  const loading = useRetirementList((s) => s.loading);
  const selected = useRetirementList((s) => s.selected);
  const toggleSelected = useRetirementList((s) => s.toggleSelected);
  const retirementId = useNavigation((s) => s.retirementId);
  const openRetirement = useNavigation((s) => s.openRetirement);
  if (total === null) return loading ? <Loading label="Loading retirements…" /> : null;
  if (total === 0) return <EmptyState title="No retirements match">Try other words or another filter.</EmptyState>;
  return (
    <div className="table-wrap">
      <table className="simple-table selectable" aria-label="Retirements">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Select</span>
            </th>
            <th scope="col">Date</th>
            <th scope="col">Beneficiary</th>
            <th scope="col">Project</th>
            <th scope="col">Vintage</th>
            <th scope="col" className="numeric">
              Amount
            </th>
            <th scope="col">Claim</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-retirement-id={r.id} aria-selected={retirementId === r.id} className={retirementId === r.id ? 'row-current' : undefined} onClick={() => openRetirement(r.id)}>
              <td onClick={(e) => e.stopPropagation()}>
                <input
                  type="checkbox"
                  aria-label={`Select retirement of ${formatTonnesValue(r.amount)} for ${r.beneficiary ?? 'an unclaimed owner'}`}
                  checked={Boolean(selected[r.id])}
                  disabled={!r.isClaimed}
                  title={r.isClaimed ? undefined : 'No certificate until the owner finalizes it'}
                  onChange={() => toggleSelected(r.id)}
                />
              </td>
              <td className="nowrap">{formatDate(r.createdAt)}</td>
              <td>
                <button type="button" className="button-link" onClick={() => openRetirement(r.id)}>
                  {r.beneficiary ?? 'Unclaimed'}
                </button>
                {r.organizationName && <span className="cell-secondary">{r.organizationName}</span>}
              </td>
              <td>
                {r.projectName}
                <span className="cell-secondary">No. {r.projectNum}</span>
              </td>
              <td>{r.vintage ?? '—'}</td>
              <td className="numeric">{formatTonnesValue(r.amount)}</td>
              <td>
                <StatusBadge value={r.isClaimed ? 'claimed' : 'unclaimed'} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length < total && (
        <div className="table-footer">
          <button type="button" className="button" disabled={loading} onClick={() => void useRetirementList.getState().loadMore()}>
            {loading ? 'Loading…' : `Show more (${formatCount(total - rows.length)} left)`}
          </button>
        </div>
      )}
    </div>
  );
}

export function RetirementsScreen() {
  const dataVersion = useSync((s) => s.dataVersion);
  const total = useRetirementList((s) => s.total);
  const error = useRetirementList((s) => s.error);
  const query = useRetirementList((s) => s.query);
  const retirementId = useNavigation((s) => s.retirementId);
  useEffect(() => {
    if (loadedDataVersion !== dataVersion) {
      loadedDataVersion = dataVersion;
      useRetirementList.getState().refresh();
    }
  }, [dataVersion]);
  return (
    <div className="screen">
      <header className="screen-header">
        <div>
          <h1>Retirements</h1>
          <p className="screen-subtitle" aria-live="polite">
            {total === null ? 'Loading retirements…' : `${formatCount(total)} retirement${total === 1 ? '' : 's'}`}
          </p>
        </div>
        <div className="header-actions">
          <CertificateDownloads />
          <ExportCsvButton request={{ list: 'retirements', search: toRetirementSearch(query, 0, 500) }} disabled={!total} />
        </div>
      </header>
      <RetirementToolbar />
      <ErrorMessage error={error} onRetry={() => useRetirementList.getState().refresh()} />
      <div className={retirementId ? 'split' : undefined}>
        <RetirementTable />
        {retirementId && <RetirementDetails id={retirementId} />}
      </div>
    </div>
  );
}

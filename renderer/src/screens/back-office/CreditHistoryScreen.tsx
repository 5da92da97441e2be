// Back office: Credit history — "where did these tonnes go?". Search a serialization or a credit
// id, then every ledger movement from issuance to now (oldest first, a page at a time): when, what,
// how much, from which account to which, a cancellation's reason, and who did it (the audit entry:
// operator, action, outcome), each linking inside the desk (project, organizations, audit entry).
import { useEffect, useRef, useState } from 'react';
import type { BackOfficeData } from '@shared/desk/back-office';
import { ErrorMessage, Loading } from '@renderer/components/feedback';
import { readBackOffice, useBackOffice } from '@renderer/stores/backOffice';
import { describeError } from '@renderer/lib/desk';
import { creditTypeLabel, formatDateTime, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { BackOfficePage } from './BackOfficePage';
import { useOrganizationNames } from './organizationNames';
import { AccountName, tonnesOf } from './ledger/accounts';
import './ledger/ledger.css';
import { auditActionWords } from '@renderer/lib/registryWords';
import { EMPTY_SEARCH, refuseEmptySearch, useSearchAnnouncement } from './ledger/creditSearch';

type Trail = BackOfficeData<'operatorCreditTrail'>;
type Movement = Trail['movements'][number];

const PAGE = 50;
/** A credit id (`exPost-<token>-<contract>`) rather than a serialization. */
const isCreditId = (text: string) => /^ex(Post|Ante)-\d+-0x[0-9a-f]{40}$/i.test(text);

const KIND_WORDS: Record<string, string> = {
  issue: 'Issued',
  transfer: 'Transferred',
  deposit: 'Deposited',
  withdraw: 'Withdrawn',
  retire: 'Retired',
  cancel: 'Cancelled',
};

function useTrail(search: string | null) {
  const version = useBackOffice((s) => s.version);
  const [state, setState] = useState<{
    trail: Trail | null;
    error: string | null;
    loading: boolean;
    /** A later page is being read (the main load has its own `loading`). */
    loadingMore: boolean;
    source: string | null;
  }>({ trail: null, error: null, loading: false, loadingMore: false, source: null });
  /** Bumped by every main load: a later page asked for before it is the page of a trail no longer shown. */
  const generation = useRef(0);
  const query = (cursor?: string) => ({
    query: {
      ...(search && isCreditId(search) ? { creditId: search } : { serialization: search ?? '' }),
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    },
  });
  useEffect(() => {
    if (!search) return;
    let current = true;
    generation.current += 1;
    setState((s) => ({ ...s, loading: true, loadingMore: false, error: null }));
    readBackOffice('operatorCreditTrail', query()).then(
      (read) =>
        current &&
        setState({
          trail: read.data,
          error: null,
          loading: false,
          loadingMore: false,
          source: read.source === 'cache' ? read.fetchedAt : null,
        }),
      (error: unknown) =>
        current && setState({ trail: null, error: describeError(error), loading: false, loadingMore: false, source: null }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reloads on a new search and after every back-office write
  }, [search, version]);
  const more = async () => {
    const cursor = state.trail?.nextCursor;
    if (!cursor || !state.trail || state.loading || state.loadingMore) return;
    // The answer belongs to this trail only: a new search (or a reload) since then drops it.
    const asked = generation.current;
    setState((s) => ({ ...s, loadingMore: true }));
    try {
      const read = await readBackOffice('operatorCreditTrail', query(cursor));
      if (asked !== generation.current) return;
      setState((s) => ({
        ...s,
        loadingMore: false,
        trail: s.trail ? { ...read.data, movements: [...s.trail.movements, ...read.data.movements] } : read.data,
      }));
    } catch (error) {
      if (asked !== generation.current) return;
      setState((s) => ({ ...s, loadingMore: false, error: describeError(error) }));
    }
  };
  return { ...state, more };
}

function Who({ movement }: { movement: Movement }) {
  const open = useNavigation((s) => s.openBackOffice);
  const audit = movement.audit;
  if (!audit) {
    // One phrase whether or not the movement carries a reference: either way no operator made it
    // (it read "Not recorded" for some seed movements and "No operator write …" for the others).
    return <span className="muted">No operator write (an app or the seed)</span>;
  }
  return (
    <span>
      {audit.operatorName ?? audit.actor} ·{' '}
      <button type="button" className="button-link" onClick={() => open('bo-audit', { entryId: audit.id, targetId: audit.id })}>
        {auditActionWords(audit.action)} ({audit.outcome})
      </button>
    </span>
  );
}

export function CreditHistoryScreen() {
  // The owner by name ("owned by the project's organization" named nobody).
  const organizationNames = useOrganizationNames();
  const initial = useNavigation((s) => s.backOffice.creditId ?? s.backOffice.serialization ?? '');
  const open = useNavigation((s) => s.openBackOffice);
  const [text, setText] = useState(initial);
  const [search, setSearch] = useState<string | null>(initial || null);
  const { trail, error, loading, loadingMore, source, more } = useTrail(search);
  const [empty, setEmpty] = useState(false);
  useSearchAnnouncement(search, trail);
  const total = trail?.movements.reduce((sum, m) => (m.kind === 'issue' ? sum + m.amountGrams : sum), 0) ?? 0;
  return (
    <BackOfficePage title="Credit history">
      <form
        className="form-inline ledger-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const value = text.trim();
          setEmpty(!value);
          if (value) setSearch(value);
          else refuseEmptySearch(() => document.getElementById('credit-history-search'));
        }}
      >
        <div className="field">
          <label htmlFor="credit-history-search">Serialization or credit id</label>
          <input
            id="credit-history-search"
            className="mono"
            size={48}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="RDR-KEN-1-1-1-P-0-2022"
            aria-invalid={empty || undefined}
            aria-describedby={empty ? 'credit-history-search-error' : undefined}
          />
          {empty && (
            <span id="credit-history-search-error" className="field-error">
              {EMPTY_SEARCH}
            </span>
          )}
        </div>
        <button type="submit" className="button button-primary">
          Show history
        </button>
      </form>
      {source && <p className="muted">Offline: this history is as it was read at {formatDateTime(source)}.</p>}
      <ErrorMessage error={error} />
      {loading && !trail && <Loading label="Reading the ledger…" />}
      {trail && (
        <>
          <h2 className="mono credit-trail-title">{trail.credit.serialization}</h2>
          <p>
            {creditTypeLabel(trail.credit.type)} credits of{' '}
            <button type="button" className="button-link" onClick={() => open('bo-projects', { projectId: trail.credit.projectId })}>
              {trail.credit.projectName} (No. {trail.credit.projectNum})
            </button>
            , vintage {trail.credit.vintage}, owned by{' '}
            <button
              type="button"
              className="button-link"
              onClick={() => open('bo-organizations', { organizationId: trail.credit.organizationId })}
            >
              {organizationNames.get(trail.credit.organizationId) ?? "the project's organization"}
            </button>
            {/* "Pvt. Ltd." ends the sentence itself: no second full stop */}
            {organizationNames.get(trail.credit.organizationId)?.endsWith('.') ? ' ' : '. '}
            {tonnesOf(total)} issued{trail.nextCursor ? ' in the movements shown so far' : ''}.
          </p>
          <div className="table-scroll">
            <table className="simple-table credit-trail" aria-label="Ledger movements, oldest first">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Movement</th>
                  <th scope="col" className="numeric">
                    Amount
                  </th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                  <th scope="col">Who</th>
                </tr>
              </thead>
              <tbody>
                {trail.movements.map((m) => (
                  <tr key={m.id} data-kind={m.kind}>
                    <td>{formatDateTime(m.at)}</td>
                    <td>
                      {KIND_WORDS[m.kind] ?? humanize(m.kind)}
                      {m.reason && <div className="field-hint">Reason: {m.reason}</div>}
                    </td>
                    <td className="numeric">{tonnesOf(m.amountGrams)}</td>
                    <td>
                      <AccountName account={m.from} />
                    </td>
                    <td>
                      {m.kind === 'retire' || m.kind === 'cancel' ? (
                        <span className="muted">Out of circulation</span>
                      ) : (
                        <AccountName account={m.to} />
                      )}
                    </td>
                    <td>
                      <Who movement={m} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {trail.nextCursor && (
            <button type="button" className="button" onClick={() => void more()} disabled={loading || loadingMore}>
              {loadingMore ? 'Loading…' : 'Show later movements'}
            </button>
          )}
        </>
      )}
    </BackOfficePage>
  );
}

// Back office: the Audit log. Every operator action, newest first, filtered by operator, action,
// target, outcome and date (days in the desk's time zone: from the first day's start to the last
// day's end); each entry opens what it touched inside the desk, and "Export CSV" writes exactly the
// filtered list (every page of it, not only those loaded).
import { useMemo, useState } from 'react';
import type { AuditFilter } from '@shared/desk/audit-filter';
import type { BackOfficeData } from '@shared/desk/back-office';
import { endpoints } from '@shared/registry/endpoints';
import { AUDIT_OUTCOMES, MAX_PAGE_SIZE } from '@shared/registry/vocabulary';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { AnySelect } from '@renderer/components/AnySelect';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { DateFilterField } from '@renderer/components/DateInput';
import { parseLocaleDate } from '@renderer/lib/localeDate';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { describeError } from '@renderer/lib/desk';
import { formatDateTime, humanize } from '@renderer/lib/format';
import { useCan } from '@renderer/stores/backOffice';
import { useNavigation, type BackOfficeScreenId } from '@renderer/stores/navigation';
import { touchedBy, type TouchedKind } from './auditTargets';
import { BackOfficePage } from './BackOfficePage';
import { useOperatorNames } from './operatorNames';
import { useRecordNames } from './recordNames';
import { auditActionWords, auditActorWords, auditedActions } from '@renderer/lib/registryWords';

type Entry = BackOfficeData<'operatorSearchAudit'>['entries'][number];

/** Every action the audit log records (each write's, from the endpoint table), for the action filter. */
const ACTIONS = auditedActions(
  Object.values(endpoints)
    .map((e) => ('audit' in e ? e.audit : undefined))
    .filter((a): a is string => typeof a === 'string'),
);

const OPENS: Record<TouchedKind, { screen: BackOfficeScreenId; param: string; label: string }> = {
  project: { screen: 'bo-projects', param: 'projectId', label: 'Project' },
  organization: { screen: 'bo-organizations', param: 'organizationId', label: 'Organization' },
  app: { screen: 'bo-apps', param: 'appId', label: 'App' },
  installation: { screen: 'bo-apps', param: 'installationId', label: 'Installation' },
  operator: { screen: 'bo-operators', param: 'operatorId', label: 'Operator' },
  credit: { screen: 'bo-credit-history', param: 'creditId', label: 'Credit' },
};

interface FilterForm {
  operatorId: string;
  action: string;
  targetId: string;
  outcome: string;
  fromDay: string;
  toDay: string;
}

const EMPTY: FilterForm = { operatorId: '', action: '', targetId: '', outcome: '', fromDay: '', toDay: '' };

/** A day typed in the filter (the desk's locale's form), or null while it is empty or not a date. */
const dayOf = (text: string): string | null => {
  const read = text.trim() === '' ? null : parseLocaleDate(text);
  return read?.ok ? read.iso : null;
};

/** Why a day filter is not applied, or a range cannot match (said beside its field). */
export function dayProblems(form: FilterForm): { fromDay: string | null; toDay: string | null } {
  const problem = (text: string) => {
    const read = text.trim() === '' ? null : parseLocaleDate(text);
    return read && !read.ok ? `${read.message} Until then this filter is not applied.` : null;
  };
  const [from, to] = [dayOf(form.fromDay), dayOf(form.toDay)];
  const inverted = from !== null && to !== null && to < from ? 'The range ends before it starts, so no entry can match.' : null;
  return { fromDay: problem(form.fromDay), toDay: problem(form.toDay) ?? inverted };
}

/**
 * The registry's filter for the form: days are local, `to` is the start of the day after the last.
 * A day that is not (yet) a date is left out rather than sent half typed.
 */
export function toAuditFilter(form: FilterForm): AuditFilter {
  const dayStart = (iso: string, plusDays = 0) => {
    const [y, m, d] = iso.split('-').map(Number);
    return new Date(y!, m! - 1, d! + plusDays).toISOString();
  };
  const [from, to] = [dayOf(form.fromDay), dayOf(form.toDay)];
  return {
    ...(form.operatorId ? { operatorId: form.operatorId } : {}),
    ...(form.action ? { action: form.action } : {}),
    ...(form.targetId.trim() ? { targetId: form.targetId.trim() } : {}),
    ...(form.outcome ? { outcome: form.outcome as AuditFilter['outcome'] } : {}),
    ...(from ? { from: dayStart(from) } : {}),
    ...(to ? { to: dayStart(to, 1) } : {}),
  };
}

export function AuditLogScreen() {
  const linked = useNavigation((s) => s.backOffice);
  const [form, setForm] = useState<FilterForm>(() => ({ ...EMPTY, targetId: linked.targetId ?? '' }));
  const filter = useMemo(() => toAuditFilter(form), [form]);
  const days = dayProblems(form);
  /** Cursors of the pages shown after the first ("Show more"). */
  const [cursors, setCursors] = useState<string[]>([]);
  const set = (patch: Partial<FilterForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setCursors([]);
  };
  const canListOperators = useCan('operatorListOperators').allowed;
  const operators = useBackOfficeRead('operatorListOperators', {}, { enabled: canListOperators });
  const operatorNames = useOperatorNames();
  // What an entry touched, by name where the desk knows it.
  const recordNames = useRecordNames();
  const pages = [null, ...cursors];

  return (
    <BackOfficePage title="Audit log" actions={<ExportCsvButton request={{ list: 'audit', filter }} />}>
      <form className="filters form-inline" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>Operator</span>
          {canListOperators ? (
            <select value={form.operatorId} onChange={(e) => set({ operatorId: e.target.value })}>
              <option value="">Any</option>
              {(operators.data?.data.operators ?? []).map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name} · {humanize(o.role)}
                </option>
              ))}
            </select>
          ) : (
            <input value={form.operatorId} placeholder="Operator id" onChange={(e) => set({ operatorId: e.target.value.trim() })} />
          )}
        </label>
        <AnySelect
          className="field"
          label="Action"
          value={form.action}
          options={ACTIONS.map((a) => [a, auditActionWords(a)] as const)}
          onChange={(action) => set({ action })}
        />
        <label className="field">
          <span>Target id</span>
          <input type="search" value={form.targetId} placeholder="Any" onChange={(e) => set({ targetId: e.target.value })} />
        </label>
        <AnySelect
          className="field"
          label="Outcome"
          value={form.outcome}
          options={AUDIT_OUTCOMES.map((o) => [o, humanize(o)] as const)}
          onChange={(outcome) => set({ outcome })}
        />
        <DateFilterField label="From" value={form.fromDay} onChange={(fromDay) => set({ fromDay })} problem={days.fromDay} />
        <DateFilterField label="To (inclusive)" value={form.toDay} onChange={(toDay) => set({ toDay })} problem={days.toDay} />
        <button type="button" className="button" onClick={() => set(EMPTY)} disabled={JSON.stringify(form) === JSON.stringify(EMPTY)}>
          Clear filters
        </button>
      </form>
      <div className="table-wrap">
        <table className="simple-table" aria-label="Audit entries">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Outcome</th>
              <th scope="col">Touched</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          {pages.map((cursor, index) => (
            <AuditPage
              key={`${JSON.stringify(filter)}:${cursor ?? ''}`}
              filter={filter}
              cursor={cursor}
              operatorNames={operatorNames}
              recordNames={recordNames}
              last={index === pages.length - 1}
              onMore={(next) => setCursors((c) => [...c, next])}
            />
          ))}
        </table>
      </div>
    </BackOfficePage>
  );
}

function AuditPage({
  filter,
  cursor,
  operatorNames,
  recordNames,
  last,
  onMore,
}: {
  filter: AuditFilter;
  cursor: string | null;
  operatorNames: Map<string, string>;
  recordNames: Map<string, string>;
  last: boolean;
  onMore: (cursor: string) => void;
}) {
  const page = useBackOfficeRead('operatorSearchAudit', {
    query: { ...filter, limit: MAX_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
  });
  const entries = page.data?.data.entries ?? [];
  const next = page.data?.data.nextCursor ?? null;
  return (
    <tbody data-audit-page={cursor ?? 'first'}>
      {page.error ? (
        <tr>
          <td colSpan={6}>
            <ErrorMessage error={describeError(page.error)} onRetry={page.reload} />
          </td>
        </tr>
      ) : page.loading && !page.data ? (
        <tr>
          <td colSpan={6}>
            <Loading label="Loading entries…" />
          </td>
        </tr>
      ) : entries.length === 0 && cursor === null ? (
        <tr>
          <td colSpan={6}>
            <EmptyState title="No entry matches">Change or clear the filters.</EmptyState>
          </td>
        </tr>
      ) : (
        entries.map((e) => (
          <AuditRow
            key={e.id}
            entry={e}
            operatorName={e.operatorId ? operatorNames.get(e.operatorId) : undefined}
            recordNames={recordNames}
          />
        ))
      )}
      {last && next && (
        <tr>
          <td colSpan={6}>
            <button type="button" className="button" onClick={() => onMore(next)}>
              Show more entries
            </button>
          </td>
        </tr>
      )}
    </tbody>
  );
}

function AuditRow({
  entry,
  operatorName,
  recordNames,
}: {
  entry: Entry;
  operatorName: string | undefined;
  recordNames: Map<string, string>;
}) {
  const open = useNavigation((s) => s.openBackOffice);
  const touched = touchedBy(entry);
  return (
    <tr data-audit-id={entry.id}>
      <td className="nowrap">{formatDateTime(entry.at)}</td>
      <td>
        {operatorName ?? auditActorWords(entry.actor)}
        {(operatorName ?? auditActorWords(entry.actor)) !== entry.actor && <span className="cell-secondary">{entry.actor}</span>}
      </td>
      <td title={entry.action}>{auditActionWords(entry.action)}</td>
      <td>
        <StatusBadge value={entry.outcome} />
      </td>
      <td>
        {touched.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <ul className="plain-list">
            {touched.map((t) => (
              <li key={t.id}>
                <button type="button" className="button-link" onClick={() => open(OPENS[t.kind].screen, { [OPENS[t.kind].param]: t.id })}>
                  {OPENS[t.kind].label}{' '}
                  {recordNames.has(t.id) ? (
                    recordNames.get(t.id)
                  ) : (
                    <span className="mono">{t.id.length > 14 ? `${t.id.slice(0, 8)}…` : t.id}</span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        <details>
          <summary>Show</summary>
          <p className="muted">
            Action code: <span className="mono">{entry.action}</span>
          </p>
          <pre className="mono audit-detail">{JSON.stringify(entry.detail, null, 2)}</pre>
        </details>
      </td>
    </tr>
  );
}

// An organization's ledger movements on its page (OrganizationPage.tsx): read from the back-office
// cache a page at a time, so a long history stays fast; "Show more movements" reads a larger page.
import { useState } from 'react';
import type { AccountMovementsOutput } from '@shared/desk/back-office';
import { formatCount, formatDateTime, formatGramsValue, humanize } from '@renderer/lib/format';
import { desk, describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { announce } from '@renderer/lib/signals';
import { useBackOffice } from '@renderer/stores/backOffice';
import { ErrorMessage } from '@renderer/components/feedback';

const MOVEMENTS_PAGE = 50;

export function Movements({ accountIds, accountName }: { accountIds: string[]; accountName: (id: string | null) => string }) {
  const version = useBackOffice((s) => s.version);
  const [shown, setShown] = useState(MOVEMENTS_PAGE);
  const key = accountIds.join(',');
  const { data, error } = useLoader<AccountMovementsOutput | null>(
    async () => {
      if (accountIds.length === 0) return null;
      const page = await desk('backOffice.accountMovements', { accountIds, offset: 0, limit: shown });
      announce('desk:back-office-loaded', { screen: 'bo-organization-movements', rows: page.movements.length });
      return page;
    },
    [key, shown],
    version,
  );
  return (
    <section aria-labelledby="bo-movements">
      <h3 id="bo-movements">Ledger movements</h3>
      <ErrorMessage error={error ? describeError(error) : null} />
      {accountIds.length === 0 && <p className="muted">No accounts, so no movements.</p>}
      {data && data.total === 0 && <p className="muted">No movements synced yet (they follow the back-office sync).</p>}
      {data && data.total > 0 && (
        <>
          <p className="muted">
            {formatCount(data.movements.length)} of {formatCount(data.total)}, newest first
            {data.asOf && ` · synced ${formatDateTime(data.asOf)}`}
          </p>
          <table className="simple-table" aria-label="Ledger movements">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Credit</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {data.movements.map((m) => (
                <tr key={m.id}>
                  <td>{formatDateTime(m.at)}</td>
                  <td>{humanize(m.kind)}</td>
                  <td className="mono">{m.serialization}</td>
                  <td>{accountName(m.fromAccountId)}</td>
                  <td>{accountName(m.toAccountId)}</td>
                  <td className="num">{formatGramsValue(m.amountGrams)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.movements.length < data.total && (
            <button type="button" className="button" onClick={() => setShown((n) => n + MOVEMENTS_PAGE * 4)}>
              Show more movements
            </button>
          )}
        </>
      )}
    </section>
  );
}

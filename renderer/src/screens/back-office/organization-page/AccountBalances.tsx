// An organization's accounts and what each holds, one row per credit (an empty account keeps one
// row); a credit opens its history.
import { formatGramsValue, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import type { PageOrganization } from './organization';

export function AccountBalances({ accounts }: { accounts: PageOrganization['accounts'] }) {
  const open = useNavigation((s) => s.openBackOffice);
  return (
    <section aria-labelledby="bo-accounts">
      <h3 id="bo-accounts">Accounts and balances</h3>
      {accounts.length === 0 && <p className="muted">This organization has no accounts.</p>}
      <table hidden={accounts.length === 0} className="simple-table" aria-label="Accounts and balances">
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Credit</th>
            <th scope="col">Balance</th>
          </tr>
        </thead>
        <tbody>
          {accounts.flatMap((a) =>
            a.balances.length === 0
              ? [
                  <tr key={a.id}>
                    <td>{humanize(a.kind)}</td>
                    <td className="muted">No credits</td>
                    <td />
                  </tr>,
                ]
              : a.balances.map((b) => (
                  <tr key={`${a.id}/${b.creditId}`}>
                    <td>{humanize(a.kind)}</td>
                    <td>
                      <button
                        type="button"
                        className="button-link mono"
                        onClick={() => open('bo-credit-history', { creditId: b.creditId })}
                      >
                        {b.serialization}
                      </button>
                    </td>
                    <td className="num">{formatGramsValue(b.amountGrams)}</td>
                  </tr>
                )),
          )}
        </tbody>
      </table>
    </section>
  );
}

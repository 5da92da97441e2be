// Inventories of the registry's three accounts (buffer, adjustment, organization): the summary
// and every credit held, with a CSV export of the same rows.
import { useState } from 'react';
import type { DeskInput } from '../../../../shared/desk/api';
import { desk, describeError } from '../../lib/desk';
import { useLoader } from '../../lib/hooks';
import { formatTonnesValue, humanize } from '../../lib/format';
import { useSync } from '../../stores/sync';
import { useNavigation } from '../../stores/navigation';
import { ExportCsvButton } from '../../components/ExportCsvButton';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback';

type Account = DeskInput<'inventories.get'>['account'];

// Listed here rather than imported from the contract, whose runtime module would bring zod into the page.
const INVENTORY_ACCOUNTS: readonly Account[] = ['buffer', 'adjustment', 'organization'];

const ACCOUNT_LABELS: Record<Account, string> = { buffer: 'Buffer', adjustment: 'Adjustment', organization: 'Organization' };

function AccountTabs({ account, onChange }: { account: Account; onChange: (a: Account) => void }) {
  return (
    <div role="tablist" aria-label="Registry accounts" className="tabs">
      {INVENTORY_ACCOUNTS.map((a) => (
        <button key={a} type="button" role="tab" id={`tab-${a}`} aria-selected={a === account} aria-controls="inventory-panel" className="tab" onClick={() => onChange(a)}>
          {ACCOUNT_LABELS[a]}
        </button>
      ))}
    </div>
  );
}

function InventoryPanel({ account }: { account: Account }) {
  const dataVersion = useSync((s) => s.dataVersion);
  const openProject = useNavigation((s) => s.openProject);
  const inventory = useLoader(
    async () => ({ ...(await desk('inventories.get', { account })), credits: (await desk('inventories.credits', { account, limit: 500 })).rows }),
    [account],
    dataVersion,
  );
  if (inventory.loading && !inventory.data) return <Loading label="Loading the inventory…" />;
  if (!inventory.data) return <ErrorMessage error={describeError(inventory.error)} onRetry={inventory.reload} />;
  const { summary, organization, credits } = inventory.data;
  return (
    <>
      <div className="panel-header">
        <p className="muted">
          Held by <strong>{organization.fullName}</strong>
        </p>
        <ExportCsvButton request={{ list: 'inventory', account }} disabled={credits.length === 0} />
      </div>
      <dl className="tiles" aria-label="Inventory summary">
        <div className="tile">
          <dt>Ex-post</dt>
          <dd>{formatTonnesValue(summary.exPost)}</dd>
        </div>
        <div className="tile">
          <dt>Ex-ante</dt>
          <dd>{formatTonnesValue(summary.exAnte)}</dd>
        </div>
        <div className="tile">
          <dt>Retired</dt>
          <dd>{formatTonnesValue(summary.retired)}</dd>
        </div>
      </dl>
      <ErrorMessage error={inventory.error ? describeError(inventory.error) : null} onRetry={inventory.reload} />
      {credits.length === 0 ? (
        <EmptyState title={`The ${ACCOUNT_LABELS[account].toLowerCase()} account holds no credits`} />
      ) : (
        <div className="table-wrap">
          <table className="simple-table" aria-label={`${ACCOUNT_LABELS[account]} credits`}>
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Serialization</th>
                <th scope="col">Vintage</th>
                <th scope="col">Type</th>
                <th scope="col" className="numeric">
                  Amount
                </th>
                <th scope="col" className="numeric">
                  Supply
                </th>
                <th scope="col">Token</th>
              </tr>
            </thead>
            <tbody>
              {credits.map((c) => (
                <tr key={c.id}>
                  <td>
                    <button type="button" className="button-link" onClick={() => openProject(c.projectId)}>
                      {c.projectName}
                    </button>
                    <span className="cell-secondary">No. {c.projectNum}</span>
                  </td>
                  <td className="mono">{c.serialization}</td>
                  <td>{c.vintage}</td>
                  <td>{humanize(c.type)}</td>
                  <td className="numeric">{formatTonnesValue(c.amount)}</td>
                  <td className="numeric">
                    {formatTonnesValue(c.supply)} {c.unit !== 'tonne' ? c.unit : ''}
                  </td>
                  <td className="mono cell-clip" title={`${c.tokenAddress} #${c.tokenId}`}>
                    #{c.tokenId}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function InventoriesScreen() {
  const [account, setAccount] = useState<Account>('buffer');
  return (
    <div className="screen">
      <header className="screen-header">
        <div>
          <h1>Inventories</h1>
          <p className="screen-subtitle">Credits held in the registry's own accounts.</p>
        </div>
      </header>
      <AccountTabs account={account} onChange={setAccount} />
      <div role="tabpanel" id="inventory-panel" aria-labelledby={`tab-${account}`} className="tab-panel">
        <InventoryPanel account={account} />
      </div>
    </div>
  );
}

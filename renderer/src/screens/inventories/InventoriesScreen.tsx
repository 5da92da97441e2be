// Inventories of the registry's three accounts (buffer, adjustment, organization): each account's
// summary and holder, and its credits as a virtualized list searched as you type, filtered by
// vintage and type, sorted from the column headers, with a CSV export of exactly what is listed.
import { desk, describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { useListOfLatestSync } from '@renderer/lib/useListOfLatestSync';
import { formatListTotal, formatTonnesValue } from '@renderer/lib/format';
import { useSync } from '@renderer/stores/sync';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { ErrorMessage, Loading } from '@renderer/components/feedback';
import { ACCOUNT_LABELS, InventoryTable } from './InventoryTable';
import { InventoryToolbar } from './InventoryToolbar';
import { currentQuery, INVENTORY_ACCOUNTS, toSearch, useInventoryList, type InventoryAccount } from './inventoryList';
import './inventories.css';

const CREDITS = { one: 'credit', other: 'credits' };

/**
 * The tabs pattern: one Tab stop (the selected tab); Left and Right (wrapping), Home and End move
 * between the tabs, and the tab focused is shown (selection follows focus).
 */
function AccountTabs({ account, onChange }: { account: InventoryAccount; onChange: (a: InventoryAccount) => void }) {
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const at = INVENTORY_ACCOUNTS.indexOf(account);
    const count = INVENTORY_ACCOUNTS.length;
    const to: Record<string, number> = { ArrowRight: (at + 1) % count, ArrowLeft: (at - 1 + count) % count, Home: 0, End: count - 1 };
    const next = to[event.key];
    if (next === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const chosen = INVENTORY_ACCOUNTS[next]!;
    onChange(chosen);
    document.getElementById(`tab-${chosen}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Registry accounts" className="tabs" onKeyDown={onKeyDown}>
      {INVENTORY_ACCOUNTS.map((a) => (
        <button
          key={a}
          type="button"
          role="tab"
          id={`tab-${a}`}
          aria-selected={a === account}
          aria-controls="inventory-panel"
          tabIndex={a === account ? 0 : -1}
          className="tab"
          onClick={() => onChange(a)}
        >
          {ACCOUNT_LABELS[a]}
        </button>
      ))}
    </div>
  );
}

/** The list's count ("2,345 credits", "10,000+ credits"), with "match" while a search or filter narrows it. */
function CreditCount() {
  const total = useInventoryList((s) => s.total);
  const totalIsLowerBound = useInventoryList((s) => s.totalIsLowerBound);
  const extent = useInventoryList((s) => s.extent);
  const narrowed = useInventoryList((s) => {
    const q = currentQuery(s);
    return q.text.trim() !== '' || Object.values(q.filters).some(Boolean);
  });
  if (total === null) return <span className="muted">Counting…</span>;
  const shown = formatListTotal({ total, totalIsLowerBound, extent }, CREDITS);
  return <span className="inventory-count">{narrowed ? `${shown} match` : shown}</span>;
}

function InventoryPanel({ account }: { account: InventoryAccount }) {
  const dataVersion = useSync((s) => s.dataVersion);
  const inventory = useLoader(() => desk('inventories.get', { account }), [account], dataVersion);
  const query = useInventoryList((s) => currentQuery(s));
  const total = useInventoryList((s) => s.total);
  if (inventory.loading && !inventory.data) return <Loading label="Loading the inventory…" />;
  if (!inventory.data) return <ErrorMessage error={describeError(inventory.error)} onRetry={inventory.reload} />;
  const { summary, organization, creditCount } = inventory.data;
  return (
    <>
      <div className="panel-header">
        <p className="muted">
          Held by <strong>{organization.fullName}</strong>
        </p>
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
      <InventoryToolbar account={account} />
      <div className="inventory-list-header">
        <CreditCount />
        <ExportCsvButton request={{ list: 'inventory', ...toSearch(account, query) }} label="Export CSV" disabled={!total} />
      </div>
      <InventoryTable accountHoldsCredits={creditCount > 0} />
    </>
  );
}

export function InventoriesScreen() {
  const account = useInventoryList((s) => s.account);
  const setAccount = useInventoryList((s) => s.setAccount);
  useListOfLatestSync(useInventoryList);
  return (
    <div className="screen screen-fill">
      <header className="screen-header">
        <div>
          <h1>Inventories</h1>
          <p className="screen-subtitle">Credits held in the registry's own accounts.</p>
        </div>
      </header>
      <AccountTabs account={account} onChange={setAccount} />
      <div role="tabpanel" id="inventory-panel" aria-labelledby={`tab-${account}`} className="tab-panel inventory-panel">
        <InventoryPanel key={account} account={account} />
      </div>
    </div>
  );
}

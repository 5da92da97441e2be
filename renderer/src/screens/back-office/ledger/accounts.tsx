// Ledger accounts and amounts as the back office shows them: "Inventory of Alpha Forests Ltd" (the
// organization a link inside the desk), "Buffer account", "Wallet 0x…"; grams as exact tonnes.
import type { AccountRefBody } from '@shared/registry/operator-previews';
import { formatGrams } from '@renderer/lib/decimal';
import { useNavigation } from '@renderer/stores/navigation';

export interface AccountLike {
  kind: 'inventory' | 'warehouse' | 'buffer' | 'adjustment' | 'registry' | 'wallet';
  organizationId: string | null;
  organizationName?: string | null;
  walletAddress?: string | null;
}

const KIND_LABEL: Record<AccountLike['kind'], string> = {
  inventory: 'Inventory',
  warehouse: 'Warehouse',
  buffer: 'Buffer account',
  adjustment: 'Adjustment account',
  registry: 'Registry account',
  wallet: 'Wallet',
};

/** The account in words, without links (for option labels and messages). */
export function accountText(a: AccountLike): string {
  if (a.kind === 'inventory' || a.kind === 'warehouse') return `${KIND_LABEL[a.kind]} of ${a.organizationName ?? a.organizationId ?? '?'}`;
  if (a.kind === 'wallet') return `Wallet ${a.walletAddress ?? ''}`;
  return KIND_LABEL[a.kind];
}

/** A wallet address as a heading or sentence can hold it: "0x12ab…cd34" (its first 4 and last 4 hex digits). */
export function shortAddress(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/**
 * A wallet address shortened for the eye (and the full one as its tooltip), while a screen reader
 * reads the whole address: two wallets can share the short form, so it alone never identifies one.
 */
export function WalletAddress({ address }: { address: string }) {
  return (
    <span className="mono" title={address}>
      <span aria-hidden="true">{shortAddress(address)}</span>
      <span className="visually-hidden">{address}</span>
    </span>
  );
}

/** The account in words, its organization a link to the back office's organization page. */
export function AccountName({ account }: { account: AccountLike | null }) {
  const open = useNavigation((s) => s.openBackOffice);
  if (account === null) return <span className="muted">—</span>;
  if ((account.kind === 'inventory' || account.kind === 'warehouse') && account.organizationId) {
    const organizationId = account.organizationId;
    return (
      <span>
        {KIND_LABEL[account.kind]} of{' '}
        <button type="button" className="button-link" onClick={() => open('bo-organizations', { organizationId })}>
          {account.organizationName ?? organizationId}
        </button>
      </span>
    );
  }
  if (account.kind === 'wallet') {
    return (
      <span>
        Wallet <span className="mono">{account.walletAddress}</span>
      </span>
    );
  }
  return <span>{KIND_LABEL[account.kind]}</span>;
}

/** Exact tonnes for whole grams: "1,234.5 t". */
export const tonnesOf = (grams: number): string => `${formatGrams(BigInt(grams))} t`;

/** An account reference of a write's body from a picker's value (`inventory:<id>`, `buffer`, …). */
export function accountRefOf(kind: AccountLike['kind'], organizationId: string, walletAddress: string): AccountRefBody {
  if (kind === 'inventory' || kind === 'warehouse') return { kind, organizationId };
  if (kind === 'wallet') return { kind, address: walletAddress.trim() };
  return { kind };
}

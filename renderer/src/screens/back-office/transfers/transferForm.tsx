// The transfer form's model: the operations, the account kinds it moves between, the form's values
// and the write's body they make.
import type { ReactNode } from 'react';
import type { PreviewedWrite } from '@shared/registry/operator-previews';
import { parseTonnes } from '@renderer/lib/decimal';
import { accountRefOf, accountText, tonnesOf, WalletAddress, type AccountLike } from '../ledger/accounts';
import type { Operation } from '../ledger/transferHeadings';

/** "Inventory of Kenya Growers" as it reads inside a sentence: only its first letter lowered. */
export const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
/** Ends a sentence once: a name such as "Ltda." already ends with its full stop. */
export const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

export type Kind = AccountLike['kind'];

export const OPERATIONS: { id: Operation; label: string; hint: string; write: PreviewedWrite }[] = [
  { id: 'transfer', label: 'Between accounts', hint: 'Inventories, buffer, adjustment, registry, wallets.', write: 'operatorTransfer' },
  { id: 'deposit', label: 'Into a warehouse', hint: "From an organization's inventory to its warehouse.", write: 'operatorDeposit' },
  { id: 'withdrawal', label: 'Out of a warehouse', hint: 'Unreserved credits back to the inventory.', write: 'operatorWithdraw' },
  { id: 'cancellation', label: 'Cancel credits', hint: 'Out of circulation for good, with a reason.', write: 'operatorCancel' },
];

/** Where a transfer goes, inside its heading: "to the buffer account", "to wallet 0x12ab…cd34". */
export function destinationOf(form: TransferForm, organizationName: string | null): ReactNode {
  if (form.toKind === 'wallet') {
    return (
      <>
        to wallet <WalletAddress address={form.toWallet.trim()} />
      </>
    );
  }
  return `to the ${lowerFirst(accountText({ kind: form.toKind, organizationId: form.toOrganizationId, organizationName }))}`;
}

export const SOURCE_KINDS: Kind[] = ['inventory', 'buffer', 'adjustment', 'registry'];
export const TARGET_KINDS: Kind[] = ['inventory', 'buffer', 'adjustment', 'registry', 'wallet'];
export const KIND_NAMES: Record<Kind, string> = {
  inventory: "An organization's inventory",
  warehouse: "An organization's warehouse",
  buffer: 'Buffer account',
  adjustment: 'Adjustment account',
  registry: 'Registry account',
  wallet: 'A wallet',
};

export interface TransferForm {
  operation: Operation;
  fromKind: Kind;
  fromOrganizationId: string;
  toKind: Kind;
  toOrganizationId: string;
  toWallet: string;
  creditId: string;
  amount: string;
  reason: string;
}

export const EMPTY: TransferForm = {
  operation: 'transfer',
  fromKind: 'inventory',
  fromOrganizationId: '',
  toKind: 'adjustment',
  toOrganizationId: '',
  toWallet: '',
  creditId: '',
  amount: '',
  reason: '',
};

/** The source account of the form (a warehouse move's is the inventory or the warehouse). */
export function sourceOf(form: TransferForm): { kind: Kind; organizationId: string } {
  if (form.operation === 'deposit') return { kind: 'inventory', organizationId: form.fromOrganizationId };
  if (form.operation === 'withdrawal') return { kind: 'warehouse', organizationId: form.fromOrganizationId };
  return { kind: form.fromKind, organizationId: form.fromOrganizationId };
}

/** The write's body (what the review previews and the confirmation sends). */
export function transferBody(form: TransferForm): Record<string, unknown> {
  const amount = parseTonnes(form.amount);
  const tonnes = amount.ok ? amount.tonnes : 0;
  const from = accountRefOf(form.fromKind, form.fromOrganizationId, '');
  switch (form.operation) {
    case 'deposit':
    case 'withdrawal':
      return { organizationId: form.fromOrganizationId, creditId: form.creditId, amount: tonnes };
    case 'transfer':
      return { from, to: accountRefOf(form.toKind, form.toOrganizationId, form.toWallet), creditId: form.creditId, amount: tonnes };
    case 'cancellation':
      return { from, creditId: form.creditId, amount: tonnes, reason: form.reason.trim() };
  }
}

/** A change of what the credit is taken from clears the credit chosen (it may not be held there). */
export const clearsCredit = (key: keyof TransferForm): Partial<TransferForm> =>
  key === 'operation' || key === 'fromKind' || key === 'fromOrganizationId' ? { creditId: '' } : {};

/** The problems of the form, by field (empty when it can be reviewed); `credit` is the balance chosen. */
export function transferProblems(
  form: TransferForm,
  credit: { amountGrams: number } | undefined,
): Partial<Record<keyof TransferForm, string>> {
  const source = sourceOf(form);
  const amount = parseTonnes(form.amount);
  const problems: Partial<Record<keyof TransferForm, string>> = {};
  if (needsOrganization(source.kind) && !form.fromOrganizationId) problems.fromOrganizationId = 'Choose the organization.';
  if (!form.creditId) problems.creditId = 'Choose the credit.';
  if (!amount.ok) problems.amount = amount.message;
  else if (credit && amount.grams > BigInt(credit.amountGrams)) problems.amount = `Only ${tonnesOf(credit.amountGrams)} are held there.`;
  if (form.operation === 'transfer') {
    if ((form.toKind === 'inventory' || form.toKind === 'warehouse') && !form.toOrganizationId)
      problems.toOrganizationId = 'Choose the organization.';
    if (form.toKind === 'wallet' && !/^0x[0-9a-fA-F]{40}$/.test(form.toWallet.trim()))
      problems.toWallet = 'A 0x wallet address of 40 hex digits.';
  }
  if (form.operation === 'cancellation' && form.reason.trim() === '') problems.reason = 'Say why the credits are cancelled.';
  return problems;
}

/** An organization's own accounts: which organization has to be chosen. */
export const needsOrganization = (kind: Kind) => kind === 'inventory' || kind === 'warehouse';

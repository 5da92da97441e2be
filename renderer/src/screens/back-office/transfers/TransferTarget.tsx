// Where a move between accounts sends the credits: an account of the registry, an organization's
// inventory (which organization) or a wallet (its address).
import { Field } from '@renderer/components/Field';
import { OrganizationSelect } from '@renderer/components/backOffice/OrganizationSelect';
import { KIND_NAMES, TARGET_KINDS, type Kind } from './transferForm';
import type { Transfer } from './useTransfer';

export function TransferTarget({ transfer }: { transfer: Transfer }) {
  const { form, set, tried, problems, orgs } = transfer;
  return (
    <>
      <Field label="To">
        <select value={form.toKind} onChange={(e) => set('toKind', e.target.value as Kind)}>
          {TARGET_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_NAMES[k]}
            </option>
          ))}
        </select>
      </Field>
      {form.toKind === 'inventory' && (
        <Field label="To organization" error={tried ? problems.toOrganizationId : null}>
          <OrganizationSelect
            value={form.toOrganizationId}
            onChange={(id) => set('toOrganizationId', id)}
            organizations={orgs}
            placeholder="Choose an organization…"
          />
        </Field>
      )}
      {form.toKind === 'wallet' && (
        <Field label="Wallet address" error={tried ? problems.toWallet : null}>
          <input className="mono" value={form.toWallet} onChange={(e) => set('toWallet', e.target.value)} placeholder="0x…" />
        </Field>
      )}
    </>
  );
}

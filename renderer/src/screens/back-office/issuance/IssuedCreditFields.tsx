// What an issuance makes and for whom: the project, the vintage, ex-post or ex-ante, the amount (as
// the desk understood it) and the organization that receives it (the project's owner unless
// another is chosen).
import { ChoiceGroup } from '@renderer/components/ChoiceGroup';
import { Field } from '@renderer/components/Field';
import { OrganizationSelect } from '@renderer/components/backOffice/OrganizationSelect';
import { UnderstoodAmount } from '@renderer/components/UnderstoodAmount';
import type { Issuance } from './useIssuance';

const CREDIT_TYPES = [
  { id: 'exPost', label: 'Ex-post', hint: 'Reductions already verified.' },
  { id: 'exAnte', label: 'Ex-ante', hint: 'Expected reductions, issued ahead.' },
] as const;

export function IssuedCreditFields({ issuance }: { issuance: Issuance }) {
  const { form, set, tried, problems, projects, amount, owner, receivers, refusalFor } = issuance;
  return (
    <>
      <Field
        label="Project"
        error={(tried ? problems.projectId : null) ?? refusalFor('projectId')}
        hint="Validated and registered projects only."
      >
        <select value={form.projectId} onChange={(e) => set('projectId', e.target.value)}>
          <option value="">Choose a project…</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.fullName} (#{p.num}, {p.status})
            </option>
          ))}
        </select>
      </Field>
      <Field label="Vintage" error={tried ? problems.vintage : null}>
        <input inputMode="numeric" value={form.vintage} onChange={(e) => set('vintage', e.target.value)} />
      </Field>
      <ChoiceGroup
        legend="Credit type"
        name="credit-type"
        choices={CREDIT_TYPES}
        value={form.type}
        onChange={(type) => set('type', type)}
      />
      <Field label="Amount (tonnes)" error={(tried || form.amount ? problems.amount : null) ?? refusalFor('amount')}>
        <input inputMode="decimal" value={form.amount} onChange={(e) => set('amount', e.target.value)} />
      </Field>
      <UnderstoodAmount shown={amount.ok ? amount.shown : null} />
      <Field
        label="Receiving organization"
        error={refusalFor('receivingOrganizationId')}
        hint={owner ? `The project's owner, ${owner.fullName}, unless another proponent is chosen.` : undefined}
      >
        <OrganizationSelect
          value={form.receivingOrganizationId}
          onChange={(id) => set('receivingOrganizationId', id)}
          organizations={receivers.filter((o) => o.id !== owner?.id)}
          placeholder={owner ? `${owner.fullName} (project owner)` : 'The project owner'}
        />
      </Field>
    </>
  );
}

// What an issuance rests on: the verification body, the monitoring period (dates typed as the
// desk's locale writes them) and the share kept in the registry's buffer.
import { DateInput } from '@renderer/components/DateInput';
import { Field } from '@renderer/components/Field';
import { OrganizationSelect } from '@renderer/components/backOffice/OrganizationSelect';
import { dateHint } from '@renderer/lib/localeDate';
import type { Issuance } from './useIssuance';

export function VerificationFields({ issuance }: { issuance: Issuance }) {
  const { form, set, tried, problems, verifiers } = issuance;
  return (
    <>
      <Field label="Verification body" error={tried ? problems.verificationBodyId : null}>
        <OrganizationSelect
          value={form.verificationBodyId}
          onChange={(id) => set('verificationBodyId', id)}
          organizations={verifiers}
          placeholder="Choose…"
        />
      </Field>
      <Field label="Monitoring period start" hint={dateHint()} error={tried ? problems.monitoringPeriodStart : null}>
        <DateInput value={form.monitoringPeriodStart} onChange={(text) => set('monitoringPeriodStart', text)} />
      </Field>
      <Field label="Monitoring period end" hint={dateHint()} error={tried ? problems.monitoringPeriodEnd : null}>
        <DateInput value={form.monitoringPeriodEnd} onChange={(text) => set('monitoringPeriodEnd', text)} />
      </Field>
      <Field label="Buffer share (%)" hint="Empty: the registry's default share." error={problems.bufferPercent}>
        <input inputMode="decimal" value={form.bufferPercent} onChange={(e) => set('bufferPercent', e.target.value)} />
      </Field>
    </>
  );
}

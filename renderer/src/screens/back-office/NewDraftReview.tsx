// The review of a new draft project, as every back-office write is reviewed before it is sent:
// what the registry will create (its name, owner, place, dates, classification, validators and
// documents), then "Create draft" sends it (one idempotency key); "Back" returns to the form.
import type { z } from 'zod';
import type { createProjectInput } from '@shared/registry/operator-inputs';
import type { BackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { Facts } from '@renderer/components/DefinitionList';
import { Dialog } from '@renderer/components/Dialog';
import { countryName, formatDay } from '@renderer/lib/format';
import { WriteActions } from './DialogActions';

export type NewDraft = z.input<typeof createProjectInput>;

export function NewDraftReview({
  body,
  organizations,
  action,
  onClose,
  onBack,
  onCreated,
}: {
  body: NewDraft;
  organizations: Map<string, string>;
  action: BackOfficeAction<'operatorCreateProject'>;
  onClose: () => void;
  onBack: () => void;
  onCreated?: (id: string) => void;
}) {
  const names = (ids: readonly string[] | undefined) => (ids ?? []).map((id) => organizations.get(id) ?? id).join(', ');
  const titled = (part: { id: string; title: string }) => `${part.title} (${part.id})`;
  // Once made, it is said as done: a review still in the future tense read as if nothing was sent.
  const done = action.state.phase === 'done';
  return (
    <Dialog title={done ? 'Draft project created' : 'Review the new draft project'} step={done ? 'done' : 'review'} onClose={onClose}>
      <div className="form">
        <p>
          {done
            ? 'The registry created this project as a draft (it can be edited until it is submitted):'
            : 'The registry will create this project as a draft (it can be edited until it is submitted):'}
        </p>
        <Facts
          items={[
            ['Name', body.fullName],
            ['Owner', organizations.get(body.organizationId) ?? body.organizationId],
            ['Other proponents', names(body.proponentIds)],
            ['Validators', names(body.validatorIds)],
            ['Country', body.countryCode ? `${countryName(body.countryCode)} (${body.countryCode})` : null],
            ['Place', [body.city, body.state].filter(Boolean).join(', ')],
            ['Start', body.startDate ? formatDay(String(body.startDate)) : null],
            ['Crediting period start', body.creditingPeriodStartDate ? formatDay(String(body.creditingPeriodStartDate)) : null],
            ['Sector', titled(body.sector)],
            ['Methodology', titled(body.methodology)],
            ['Type', titled(body.type)],
            ['Documents', (body.documentation ?? []).map((d) => d.name).join(', ')],
          ]}
        />
        <WriteActions
          action={action}
          onClose={onClose}
          onBack={onBack}
          onConfirm={() =>
            void action.run({ body }).then((final) => {
              if (final.phase === 'done') onCreated?.(final.data.id);
            })
          }
        >
          Create draft
        </WriteActions>
      </div>
    </Dialog>
  );
}

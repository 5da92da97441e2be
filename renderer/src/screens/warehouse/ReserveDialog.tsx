// Reserving credits from the warehouse for 10 minutes. The amount is checked exactly (integer
// grams) against what the credit has available before anything is sent; the amount understood
// (in the user's locale) is shown, and named on the button, before it acts. While the reservation is
// being made it cannot be closed (Escape, ×, Cancel say why): the desk call cannot be taken back, and
// its end would close whatever reservation dialog had been opened since.
import { useState } from 'react';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import { desk } from '@renderer/lib/desk';
import { formatGrams, gramsOf, parseTonnes } from '@renderer/lib/decimal';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { ErrorMessage } from '@renderer/components/feedback';
import { useAction } from '@renderer/components/useAction';
import { UnderstoodAmount } from '@renderer/components/UnderstoodAmount';
import { useMounted } from '@renderer/components/useMounted';
import { say } from '@renderer/components/Announcer';
import { focusSoon } from '@renderer/lib/focus';

const CLOSE_REFUSED = 'The reservation is being made; this closes once the registry has answered.';

export function amountProblem(text: string, available: number): string | null {
  const parsed = parseTonnes(text);
  if (!parsed.ok) return parsed.message;
  const availableGrams = gramsOf(available);
  if (parsed.grams > availableGrams) return `Only ${formatGrams(availableGrams)} t are available.`;
  return null;
}

export function ReserveDialog({
  organizationId,
  credit,
  onClose,
  onReserved,
}: {
  organizationId: string;
  credit: WarehouseInventoryCredit;
  onClose: () => void;
  onReserved: (reservation: { id: string; serialization: string; amount: number }) => void;
}) {
  const [amount, setAmount] = useState('');
  // Reserve pressed: from then on an empty amount is a problem said next to the field, not silence.
  const [tried, setTried] = useState(false);
  const problem = amountProblem(amount, credit.amount);
  const understood = parseTonnes(amount);
  const shown = problem === null && understood.ok ? understood.shown : null;
  const mounted = useMounted();
  const reserve = useAction(async () => {
    const parsed = parseTonnes(amount);
    if (!parsed.ok) throw new Error(parsed.message);
    const made = await desk('warehouse.reserve', { organizationId, creditId: credit.id, amount: parsed.tonnes });
    // Only for this dialog, while it is on the page (its screen may have gone meanwhile).
    if (!mounted.current) return;
    onReserved(made);
    onClose();
  });
  return (
    <Dialog title="Reserve credits" onClose={onClose} closeRefused={reserve.busy ? CLOSE_REFUSED : null}>
      <p>
        {credit.project.fullName} · <span className="mono">{credit.serialization}</span>
      </p>
      <p className="muted">
        Reserved credits are held for you for 10 minutes. Finish the reservation (transfer, or transfer and retire) before then, or they
        return to the warehouse.
      </p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (problem !== null) {
            const form = e.currentTarget;
            focusSoon(() => form.querySelector('input'));
            say(`Not reserved: ${problem}`);
          } else if (shown && !reserve.busy) void reserve.run();
        }}
      >
        <Field
          label="Amount to reserve (tonnes)"
          hint={`${formatGrams(gramsOf(credit.amount))} t available`}
          error={amount || tried ? problem : null}
        >
          <input inputMode="decimal" autoFocus value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        <UnderstoodAmount shown={shown} />
        <ErrorMessage error={reserve.error ? `The reservation was not made: ${reserve.error}` : null} />
        <div className="actions">
          <button
            type="button"
            className="button"
            aria-disabled={reserve.busy || undefined}
            title={reserve.busy ? CLOSE_REFUSED : undefined}
            onClick={() => {
              if (!reserve.busy) onClose();
            }}
          >
            Cancel
          </button>
          <button type="submit" className="button button-primary" aria-disabled={reserve.busy || shown === null}>
            {reserve.busy ? 'Reserving…' : shown ? `Reserve ${shown}` : 'Reserve'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
